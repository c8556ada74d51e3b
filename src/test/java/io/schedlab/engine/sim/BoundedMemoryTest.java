package io.schedlab.engine.sim;

import io.schedlab.engine.builtins.BuiltIns;
import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.Engine;
import io.schedlab.engine.run.RunControl;
import io.schedlab.engine.registry.Registry;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.HostSpec;
import io.schedlab.engine.spec.Limits;
import io.schedlab.engine.spec.SchedulerSpec;
import io.schedlab.engine.spec.VmSpec;
import io.schedlab.engine.spec.WorkloadSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The event heap does not grow with simulated time: stale events are compacted and timers coalesced. */
class BoundedMemoryTest {

    private static int maxQueue(String policy, double seconds) {
        Registry registry = BuiltIns.registry();
        List<VmSpec> vms = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            // finite 1000 s loops: every SMT sibling change re-plans a far-away completion
            vms.add(new VmSpec("loop" + i, 2, null, null, null, null, null, null, null, null, null,
                    new WorkloadSpec("cpu-loop", Map.of("threads", 3, "workSeconds", 1000.0))));
            vms.add(new VmSpec("idle" + i, 2, null, null, null, null, null, null, null, null, null,
                    new WorkloadSpec("idle", Map.of("threads", 2, "wakeIntervalMs", 3))));
        }
        ExperimentSpec raw = new ExperimentSpec("mem", null, 3L, seconds, ExperimentSpec.StopCondition.DURATION,
                new HostSpec(1, 4, 2, null, null, null, null), new SchedulerSpec(policy, null), null, vms, null, null);
        ExperimentSpec spec = new Engine(registry).validate(raw, Limits.defaults()).normalized();
        Simulator sim = new Simulator(spec, registry, Limits.defaults(), RunControl.NONE);
        sim.run();
        return sim.maxQueueSize();
    }

    @Test
    void queueSizeIsIndependentOfRunLength() {
        for (String policy : BuiltIns.registry().policies().stream().map(d -> d.name())
                .filter(n -> !"null".equals(n)).toList()) {
            int shortRun = maxQueue(policy, 5);
            int longRun = maxQueue(policy, 50);
            assertThat(longRun).as("%s: max queued events at 50 s vs 5 s (%d)", policy, shortRun)
                    .isLessThanOrEqualTo(2 * shortRun + 64);
        }
    }
}
