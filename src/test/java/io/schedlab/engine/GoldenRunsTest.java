package io.schedlab.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.recording.TraceCsv;
import io.schedlab.engine.registry.PolicyDescriptor;
import io.schedlab.engine.output.ResultDocument;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.Limits;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.apache.commons.csv.CSVPrinter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.json.JsonMapper;
import io.schedlab.engine.run.RunControl;

/**
 * Golden regression: every {@code NAME.spec.json} in {@code src/test/resources/golden} is a fixed-seed
 * run whose result document (wall time blanked) and trace must equal {@code NAME.result.json} and
 * {@code NAME.trace.csv} byte for byte. A missing golden file fails. A deliberate model change
 * regenerates them all with
 * {@code ./mvnw -o -q test -Dtest=GoldenRunsTest -Dgolden.update=true}; review the diff and bump
 * {@code EngineVersion.VERSION}.
 */
class GoldenRunsTest {
    private static final Path DIR = Path.of("src/test/resources/golden");
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String SPEC = ".spec.json";

    static Stream<String> goldenRuns() throws IOException {
        try (Stream<Path> files = Files.list(DIR)) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(SPEC))
                    .map(n -> n.substring(0, n.length() - SPEC.length())).sorted().toList().stream();
        }
    }

    @ParameterizedTest
    @MethodSource("goldenRuns")
    void resultAndTraceMatchTheGoldenFiles(String name) throws IOException {
        ExperimentSpec spec = JSON.readValue(Files.readString(DIR.resolve(name + SPEC)), ExperimentSpec.class);
        Engine engine = Engine.standard();
        Validation v = engine.validate(spec, Limits.defaults());
        assertThat(v.violations()).isEmpty();
        StringBuilder trace = new StringBuilder();
        ResultDocument doc;
        try (CSVPrinter printer = TraceCsv.FORMAT.print(trace)) {
            doc = engine.run(v.normalized(), Limits.defaults(), RunControl.tracingTo(TraceCsv.printingTo(printer)));
        }
        String result = JSON.writerWithDefaultPrettyPrinter().writeValueAsString(doc.withoutWallTime()) + "\n";
        assertGolden(DIR.resolve(name + ".result.json"), result);
        assertGolden(DIR.resolve(name + ".trace.csv"), trace.toString());
    }

    /** The golden set keeps covering every policy (Xen and Linux under KVM), the run-queue layouts, core scheduling and the timeline. */
    @Test
    void goldenRunsCoverThePoliciesAndLayouts() throws IOException {
        List<String> specs = goldenRuns().map(n -> {
            try {
                return Files.readString(DIR.resolve(n + SPEC)).toLowerCase(Locale.ROOT);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }).toList();
        for (PolicyDescriptor d : Engine.standard().registry().policies()) {
            String policy = "\"" + d.name().toLowerCase(Locale.ROOT) + "\"";
            assertThat(specs).as("a golden run of policy %s", policy)
                    .anyMatch(s -> s.contains("\"policy\": " + policy));
        }
        for (String layout : List.of("\"core\"", "\"socket\"", "\"all\"")) {
            assertThat(specs).as("a golden credit2 run with runqueue %s", layout)
                    .anyMatch(s -> s.contains("\"runqueue\": " + layout));
        }
        assertThat(coreScheduled()).as("policies with core scheduling").isNotEmpty();
        for (String policy : coreScheduled()) {
            assertThat(specs).as("a golden %s run with core scheduling", policy)
                    .anyMatch(s -> s.contains("\"policy\": " + policy) && s.contains("\"schedgran\": \"core\""));
        }
        for (String action : List.of("pin", "unpin", "soft-affinity", "set-weight", "set-cap", "create-vm", "shutdown",
                "set-sched-params")) {
            assertThat(specs).as("a golden run with timeline action %s", action)
                    .anyMatch(s -> s.contains("\"action\": \"" + action + "\""));
        }
    }

    /** The quoted names of the policies that offer core scheduling (a {@code schedGran} parameter). */
    private static List<String> coreScheduled() {
        return Engine.standard().registry().policies().stream()
                .filter(d -> d.parameters().stream().anyMatch(p -> p.name().equals("schedGran")))
                .map(d -> "\"" + d.name().toLowerCase(Locale.ROOT) + "\"").toList();
    }

    private static void assertGolden(Path golden, String actual) throws IOException {
        if (Boolean.getBoolean("golden.update")) {
            Files.writeString(golden, actual, StandardCharsets.UTF_8);
        }
        assertThat(golden).as("golden file %s is missing; create it deliberately with"
                + " -Dgolden.update=true and review it", golden).exists();
        assertThat(actual).as("%s differs; if the model change is intended, rerun with"
                + " -Dgolden.update=true and review the diff", golden)
                .isEqualTo(Files.readString(golden, StandardCharsets.UTF_8));
    }
}
