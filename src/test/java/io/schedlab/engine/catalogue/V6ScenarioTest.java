package io.schedlab.engine.catalogue;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.Engine;
import io.schedlab.engine.Validation;
import io.schedlab.engine.output.ResultDocument;
import io.schedlab.engine.output.VmResult;
import io.schedlab.engine.run.RunControl;
import io.schedlab.engine.spec.Limits;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * V6 runs for real: eevdf 6.12 with PREEMPT_SHORT off and on, and the rule moves both cells the way the
 * commit's table does (cyclictest waits less, massive_intr is switched in more often).
 */
class V6ScenarioTest {

    @Test
    void preemptShortCutsTheShortSliceTasksDelayAndSwitchesTheLongOnesMore() {
        Engine engine = Engine.standard();
        Scenario v6 = BuiltInScenarios.byId("V6", true).orElseThrow();
        List<ResultDocument> docs = new ArrayList<>();
        for (ScenarioRun run : v6.tables().get(0).runs()) {
            Validation v = engine.validate(run.spec(), Limits.defaults());
            assertThat(v.violations()).as(run.label()).isEmpty();
            assertThat(v.normalized().scheduler().params()).containsEntry("kernelVersion", "6.12")
                    .containsEntry("preemptShort", run.label().equals("PREEMPT_SHORT"));
            assertThat(v.normalized().vms().get(1).schedParams()).containsEntry("sliceUs", 500L);
            docs.add(engine.run(v.normalized(), Limits.defaults(), RunControl.NONE));
        }
        VmResult cyclicOff = docs.get(0).vms().get(1);
        VmResult cyclicOn = docs.get(1).vms().get(1);
        assertThat(cyclicOff.name()).isEqualTo("cyclictest");
        assertThat(cyclicOn.wakeLatency().meanNanos()).isLessThan(0.9 * cyclicOff.wakeLatency().meanNanos());
        assertThat(switchesIn(docs.get(1).vms().get(0))).isGreaterThan(switchesIn(docs.get(0).vms().get(0)));
        assertThat(docs.get(1).policyStatistics().get("shortPreemptions")).isPositive();
        assertThat(docs.get(0).policyStatistics().get("shortPreemptions")).isZero();
    }

    private static long switchesIn(VmResult vm) {
        assertThat(vm.name()).isEqualTo("massive_intr");
        return vm.vcpus().stream().mapToLong(c -> c.policyStatistics().get("switchesIn")).sum();
    }
}
