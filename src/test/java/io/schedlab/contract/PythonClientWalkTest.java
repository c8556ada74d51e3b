package io.schedlab.contract;

import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.springframework.test.context.TestPropertySource;

/**
 * The README's walk-through ({@code clients/python/walk.py}) on the Python client that openapi-generator makes at
 * build time ({@code -g python}, default options, into {@code target/generated-python-client}), run with the
 * machine's {@code python3}. Fails, never skips, when python3 or the generated client's modules are missing.
 */
@TestPropertySource(properties = {"spring.datasource.url=jdbc:h2:mem:python-client-walk;DB_CLOSE_DELAY=-1",
    "schedlab.data-dir=target/test-data/python-client-walk"})
class PythonClientWalkTest extends ClientWalkTest {

    private static final Path GENERATED = Path.of("target/generated-python-client");
    /** What the generated package imports (its requirements.txt): pydantic 2, urllib3 2, python-dateutil. */
    private static final String CHECK_MODULES = String.join("\n",
            "import importlib, sys",
            "missing = []",
            "for name in ('pydantic', 'urllib3', 'dateutil', 'typing_extensions'):",
            "    try:",
            "        importlib.import_module(name)",
            "    except ImportError:",
            "        missing.append(name)",
            "if not missing:",
            "    import pydantic, urllib3",
            "    if int(pydantic.VERSION.split('.')[0]) < 2: missing.append('pydantic>=2 (found ' + pydantic.VERSION + ')')",
            "    if int(urllib3.__version__.split('.')[0]) < 2: missing.append('urllib3>=2 (found ' + urllib3.__version__ + ')')",
            "print(' '.join(missing))");

    @Override
    List<String> prepareWalk(String baseUrl, Path repository) throws IOException, InterruptedException {
        if (!Files.isDirectory(GENERATED.resolve("openapi_client"))) {
            fail("no generated Python client in " + GENERATED + ": the build's generate-test-sources phase makes it"
                    + " (openapi-generator-maven-plugin, execution test-client-python)");
        }
        String missing = run(List.of("python3", "-c", CHECK_MODULES), workDir(), "python-modules").strip();
        if (!missing.isEmpty()) {
            fail("python3 lacks what the generated client imports: " + missing + ". Install them for python3, e.g."
                    + " pip install 'pydantic>=2' 'urllib3>=2' python-dateutil typing-extensions (Debian bookworm's"
                    + " python3-pydantic is 1.10, too old)");
        }
        return List.of("python3", repository.resolve("clients/python/walk.py").toString(), baseUrl,
                repository.resolve(EXPERIMENT).toString(), repository.resolve(SWEEP).toString());
    }

    @Override
    Path workDir() {
        return Path.of("target/python-client-walk").toAbsolutePath();
    }

    @Override
    Map<String, String> environment() {
        return Map.of("PYTHONPATH", GENERATED.toAbsolutePath().toString(), "PYTHONDONTWRITEBYTECODE", "1");
    }
}
