package io.schedlab.engine.catalogue;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.Engine;
import io.schedlab.engine.run.RunControl;
import io.schedlab.engine.output.ResultDocument;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.Limits;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * E5 written as seed 004 describes it (1 socket x 4 cores x 2 threads, one 4-vCPU guest, make -j N, credit2 4.6 per
 * core vs per socket) with no placement: the vCPUs start where Xen 4.6 creates them, so the runs are the E5
 * scenario's, and the result says which rule placed them.
 */
class E5DefaultPlacementTest {

    private static final Engine ENGINE = Engine.standard();
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static ExperimentSpec asThePostDescribesIt(String runqueue, int n, String placementRule) {
        String rule = placementRule == null ? "" : ", \"placementRule\": \"" + placementRule + "\"";
        return JSON.readValue("""
                {"name": "E5", "seed": 4, "stopWhen": "all-complete", "durationSeconds": 600,
                 "host": {"sockets": 1, "coresPerSocket": 4, "threadsPerCore": 2},
                 "scheduler": {"policy": "credit2", "params": {"xenVersion": "4.6", "runqueue": "%s"}},
                 "vms": [{"name": "guest", "vcpus": 4%s,
                          "workload": {"type": "parallel-build", "params": {"parallelism": %d}}}]}
                """.formatted(runqueue, rule, n), ExperimentSpec.class);
    }

    private static ResultDocument run(ExperimentSpec raw) {
        return ENGINE.run(ENGINE.validate(raw, Limits.defaults()).normalized(), Limits.defaults(), RunControl.NONE);
    }

    private static double seconds(ResultDocument doc) {
        return doc.summary().vmHeadline().get("guest").value();
    }

    @Test
    void withoutPlacementE5GivesTheScenariosNumbersAndNamesTheRule() {
        ScenarioTable four = BuiltInScenarios.byId("E5", false).orElseThrow().tables().get(0);
        StringBuilder effects = new StringBuilder();
        for (int n : List.of(2, 4, 6, 8)) {
            double[] bySocket = new double[2];
            for (int c = 0; c < 2; c++) {
                String runqueue = c == 0 ? "core" : "socket";
                ResultDocument doc = run(asThePostDescribesIt(runqueue, n, null));
                String label = "4 vCPUs, credit2 per-" + runqueue + ", make -j " + n;
                ScenarioRun cell = four.runs().stream().filter(r -> r.label().equals(label)).findFirst().orElseThrow();
                ResultDocument scenario = ENGINE.run(ENGINE.validate(cell.spec(), Limits.defaults()).normalized(),
                        Limits.defaults(), RunControl.NONE);
                assertThat(seconds(doc)).as(label).isEqualTo(seconds(scenario));
                var placement = doc.vms().get(0).initialPlacement();
                assertThat(placement.rule()).isEqualTo("hypervisor-default");
                assertThat(placement.pcpus()).containsExactly(7, 0, 1, 2);
                assertThat(placement.release()).isEqualTo("Xen 4.6");
                assertThat(placement.source()).contains("default_vcpu0_location");
                assertThat(placement.insertPick()).as("credit2 4.6 keeps the processor at insertion").isNull();
                bySocket[c] = seconds(doc);
            }
            effects.append(String.format(" %+.2f", bySocket[1] / bySocket[0] - 1));
        }
        System.out.println("E5 per-socket effect, make -j 2,4,6,8, default placement:" + effects);
    }

    @Test
    void roundRobinIsStillThereAndIsNotWhatXenDoes() {
        StringBuilder effects = new StringBuilder();
        for (int n : List.of(2, 4, 6, 8)) {
            ResultDocument core = run(asThePostDescribesIt("core", n, "round-robin"));
            ResultDocument socket = run(asThePostDescribesIt("socket", n, "round-robin"));
            assertThat(core.vms().get(0).initialPlacement().pcpus()).containsExactly(0, 1, 2, 3);
            assertThat(core.vms().get(0).initialPlacement().rule()).isEqualTo("round-robin");
            effects.append(String.format(" %+.2f", seconds(socket) / seconds(core) - 1));
        }
        System.out.println("E5 per-socket effect, make -j 2,4,6,8, round-robin placement:" + effects);
    }
}
