package io.schedlab.contract;

import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.springframework.test.context.TestPropertySource;

/**
 * The README's walk-through ({@code clients/typescript/walk.ts}) on openapi-typescript's types of openapi.yaml
 * (default options) and openapi-fetch, compiled with typescript (strict) and run with node. The pinned tools are
 * installed outside the work tree, in the directory {@value #TOOLS_VARIABLE} names (.ci/run installs them and
 * sets it); the test fails, never skips, when they are missing.
 */
@TestPropertySource(properties = {"spring.datasource.url=jdbc:h2:mem:typescript-client-walk;DB_CLOSE_DELAY=-1",
    "schedlab.data-dir=target/test-data/typescript-client-walk"})
class TypeScriptClientWalkTest extends ClientWalkTest {

    /** Names a directory whose node_modules holds the tools below. */
    static final String TOOLS_VARIABLE = "SCHEDLAB_TS_CLIENT_TOOLS";
    private static final List<String> TOOLS = List.of("openapi-typescript/bin/cli.js", "openapi-fetch/package.json",
            "typescript/bin/tsc", "@types/node/package.json");

    @Override
    List<String> prepareWalk(String baseUrl, Path repository) throws IOException, InterruptedException {
        Path modules = toolModules();
        Path dir = workDir();
        if (Files.exists(dir)) {
            try (var files = Files.walk(dir)) {
                for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
        Files.createDirectories(dir);
        for (String file : List.of("walk.ts", "tsconfig.json", "package.json")) {
            Files.copy(repository.resolve("clients/typescript").resolve(file), dir.resolve(file));
        }
        Files.createSymbolicLink(dir.resolve("node_modules"), modules);
        run(List.of("node", "node_modules/openapi-typescript/bin/cli.js", repository.resolve("openapi.yaml").toString(),
                "--output", "schema.d.ts"), dir, "openapi-typescript");
        run(List.of("node", "node_modules/typescript/bin/tsc", "-p", "tsconfig.json"), dir, "tsc");
        return List.of("node", "out/walk.js", baseUrl, repository.resolve(EXPERIMENT).toString(),
                repository.resolve(SWEEP).toString());
    }

    @Override
    Path workDir() {
        return Path.of("target/typescript-client-walk").toAbsolutePath();
    }

    private static Path toolModules() {
        String tools = System.getenv(TOOLS_VARIABLE);
        String install = " .ci/run installs openapi-typescript, openapi-fetch, typescript and @types/node (pinned there)"
                + " and sets " + TOOLS_VARIABLE + "; see README, Set-up";
        if (tools == null || tools.isBlank()) {
            return fail(TOOLS_VARIABLE + " is not set: it names the directory whose node_modules holds the"
                    + " TypeScript client's tools." + install);
        }
        Path modules = Path.of(tools).resolve("node_modules").toAbsolutePath();
        for (String tool : TOOLS) {
            if (!Files.isRegularFile(modules.resolve(tool))) {
                fail(TOOLS_VARIABLE + "=" + tools + " lacks node_modules/" + tool + "." + install);
            }
        }
        return modules;
    }
}
