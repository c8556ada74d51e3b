package io.schedlab.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.result.ResultDocument;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.Limits;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.json.JsonMapper;

/**
 * Golden regression: fixed-seed runs must reproduce their stored result documents bit for bit
 * (wall time blanked). A deliberate model change regenerates them with
 * {@code ./mvnw -o -q test -Dtest=GoldenRunsTest -Dgolden.update=true} (then review the diff and bump
 * {@code Engine.VERSION}).
 */
class GoldenRunsTest {
    private static final Path DIR = Path.of("src/test/resources/golden");
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @ParameterizedTest
    @ValueSource(strings = {"seed001-static-pin", "null-smt-numa", "static-timeline"})
    void resultMatchesTheGoldenFile(String name) throws IOException {
        ExperimentSpec spec = JSON.readValue(Files.readString(DIR.resolve(name + ".spec.json")), ExperimentSpec.class);
        Engine engine = Engine.standard();
        Validation v = engine.validate(spec, Limits.defaults());
        assertThat(v.violations()).isEmpty();
        ResultDocument doc = engine.run(v.normalized(), Limits.defaults(), RunControl.NONE);
        String actual = JSON.writerWithDefaultPrettyPrinter().writeValueAsString(doc.withoutWallTime()) + "\n";
        Path golden = DIR.resolve(name + ".result.json");
        if (Boolean.getBoolean("golden.update") || !Files.exists(golden)) {
            Files.writeString(golden, actual, StandardCharsets.UTF_8);
        }
        assertThat(actual).as("result of %s differs from %s; if the change is intended, rerun with"
                + " -Dgolden.update=true and review the diff", name, golden)
                .isEqualTo(Files.readString(golden, StandardCharsets.UTF_8));
    }
}
