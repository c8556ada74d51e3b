package io.schedlab.engine.catalogue;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.Engine;
import io.schedlab.engine.run.RunControl;
import io.schedlab.engine.Validation;
import io.schedlab.engine.output.ResultDocument;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.Limits;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/** Every file under examples/ parses as an ExperimentSpec (unknown properties rejected), validates and runs. */
class ExampleFilesTest {

    private static final Path DIR = Path.of("examples");
    private static final JsonMapper JSON = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();
    private static final Engine ENGINE = Engine.standard();

    private static List<Path> files() throws IOException {
        try (Stream<Path> s = Files.list(DIR)) {
            return s.filter(p -> p.toString().endsWith(".json")).sorted().toList();
        }
    }

    @Test
    void theExamplesTheServiceAndReadmeUseExist() throws IOException {
        assertThat(files().stream().map(p -> p.getFileName().toString())).contains("seed-001-static.json",
                "seed-001-credit.json", "seed-001-pin.json", "seed-004-credit2-core.json",
                "seed-004-credit2-socket.json", "seed-004-credit.json", "small.json", "e3-numa-credit2-soft.json");
    }

    @TestFactory
    Stream<DynamicTest> everyExampleValidatesAndRuns() throws IOException {
        return files().stream().map(file -> DynamicTest.dynamicTest(file.getFileName().toString(), () -> {
            ExperimentSpec raw = JSON.readValue(file.toFile(), ExperimentSpec.class);
            Assumptions.assumeTrue(ENGINE.registry().policy(raw.scheduler().policy()).isPresent(),
                    "policy " + raw.scheduler().policy() + " not registered on this branch yet");
            Validation v = ENGINE.validate(raw, Limits.defaults());
            assertThat(v.violations()).as(file.toString()).isEmpty();
            ResultDocument doc = ENGINE.run(v.normalized(), Limits.defaults(), RunControl.NONE);
            assertThat(doc.summary().vmHeadline()).as(file.toString()).containsKeys(
                    raw.vms().stream().map(vm -> vm.name()).toArray(String[]::new));
            if (raw.stopWhen() == ExperimentSpec.StopCondition.ALL_COMPLETE) {
                assertThat(doc.stopReason()).as(file + " should finish its work").isEqualTo("all-complete");
            }
        }));
    }

    @Test
    void seed001PinRemovesTheSharingFromThePinOn() throws IOException {
        ResultDocument shared = runFile("seed-001-static.json");
        ResultDocument pinned = runFile("seed-001-pin.json");
        double sharedVm1 = shared.summary().vmHeadline().get("VM1").value();
        double pinnedVm1 = pinned.summary().vmHeadline().get("VM1").value();
        // Shared for the whole run: ~2 x 96 s; pinned at 10 s: 10 s at half speed, then full speed: ~101 s.
        assertThat(sharedVm1).isBetween(180.0, 230.0);
        assertThat(pinnedVm1).isBetween(96.0, 110.0);
    }

    @Test
    void smallRunsInWellUnderATenthOfASecond() throws IOException {
        runFile("small.json"); // warm-up
        double best = Double.MAX_VALUE;
        for (int i = 0; i < 5; i++) { // best of 5: the machine is shared, one slow run says nothing
            long start = System.nanoTime();
            ResultDocument doc = runFile("small.json");
            best = Math.min(best, (System.nanoTime() - start) / 1e9);
            assertThat(doc.stopReason()).isEqualTo("all-complete");
        }
        assertThat(best).isLessThan(0.1);
    }

    @Test
    void theSeed004ExamplesAreE5sMakeJ4RunsWithTheirResults() throws IOException {
        // the files a user starts from give the built-in scenario's cells: same host, placement, work and seed
        ScenarioTable fourVcpus = BuiltInScenarios.byId("E5", false).orElseThrow().tables().get(0);
        Map<String, String> files = Map.of("credit2 per-core", "seed-004-credit2-core.json",
                "credit2 per-socket", "seed-004-credit2-socket.json", "credit", "seed-004-credit.json");
        for (Map.Entry<String, String> e : files.entrySet()) {
            String label = "4 vCPUs, " + e.getKey() + ", make -j 4";
            ScenarioRun run = fourVcpus.runs().stream().filter(r -> r.label().equals(label)).findFirst()
                    .orElseThrow(() -> new AssertionError("E5 has no run '" + label + "'"));
            ExperimentSpec scenario = ENGINE.validate(run.spec(), Limits.defaults()).normalized();
            ExperimentSpec example = ENGINE.validate(JSON.readValue(DIR.resolve(e.getValue()).toFile(),
                    ExperimentSpec.class), Limits.defaults()).normalized();
            assertThat(example.host()).as(e.getValue()).isEqualTo(scenario.host());
            assertThat(example.scheduler()).as(e.getValue()).isEqualTo(scenario.scheduler());
            assertThat(example.seed()).as(e.getValue()).isEqualTo(scenario.seed());
            assertThat(example.vms().get(0).placement()).as(e.getValue()).isEqualTo(scenario.vms().get(0).placement());
            assertThat(example.vms().get(0).workload()).as(e.getValue()).isEqualTo(scenario.vms().get(0).workload());
            double expected = ENGINE.run(scenario, Limits.defaults(), RunControl.NONE).summary().vmHeadline()
                    .get("guest").value();
            assertThat(runFile(e.getValue()).summary().vmHeadline().get("guest").value()).as(e.getValue())
                    .isEqualTo(expected);
        }
    }

    private static ResultDocument runFile(String name) throws IOException {
        ExperimentSpec raw = JSON.readValue(DIR.resolve(name).toFile(), ExperimentSpec.class);
        Validation v = ENGINE.validate(raw, Limits.defaults());
        assertThat(v.violations()).isEmpty();
        return ENGINE.run(v.normalized(), Limits.defaults(), RunControl.NONE);
    }
}
