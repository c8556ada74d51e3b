package io.schedlab.engine;

import static io.schedlab.engine.TestSpecs.cpuLoop;
import static io.schedlab.engine.TestSpecs.host;
import static io.schedlab.engine.TestSpecs.spec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.schedlab.engine.output.ResultDocument;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.Limits;
import io.schedlab.engine.spec.TimelineAction;
import io.schedlab.engine.spec.VmSpec;
import io.schedlab.engine.spec.WorkloadSpec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import io.schedlab.engine.run.RunControl;

/** The null scheduler (xen/common/sched/null.c): one vCPU per pCPU, no time sharing, a wait list when none is free. */
class NullPolicyTest {
    private final Engine engine = Engine.standard().withSelfCheck();

    private ResultDocument run(ExperimentSpec s) {
        Validation v = engine.validate(s, Limits.defaults());
        assertThat(v.violations()).isEmpty();
        return engine.run(v.normalized(), Limits.defaults(), RunControl.NONE);
    }

    @Test
    void eachVcpuOwnsAPcpuAndNeverShares() {
        ResultDocument d = run(spec(host(1, 2, 1), "null", 10, List.of(cpuLoop("a", 0, 1), cpuLoop("b", 0, 1)),
                List.of()));
        // both placed on pCPU 0: null.c moves the second to the free pCPU at insertion
        assertThat(Seconds.of(d.vms().get(0).completionNanos())).isCloseTo(1.0, within(0.001));
        assertThat(Seconds.of(d.vms().get(1).completionNanos())).isCloseTo(1.0, within(0.001));
        assertThat(d.vms().get(1).vcpus().get(0).ranOn()).extracting(p -> p.pcpu()).containsExactly(1);
    }

    @Test
    void aVcpuWithNoFreeAllowedPcpuWaitsUntilOneIsFreed() {
        VmSpec waiter = new VmSpec("waiter", 1, null, null, List.of(0), null, null, null, null, null, null,
                new WorkloadSpec("cpu-loop", Map.of("workSeconds", 1.0)));
        ExperimentSpec s = spec(host(1, 2, 1), "null", 10, List.of(cpuLoop("holder", 0, 5), waiter),
                List.of(new TimelineAction(2.0, TimelineAction.Kind.SHUTDOWN, "holder", null, null, null, null,
                        null)));
        ResultDocument d = run(s);
        // pCPU 0 is the holder's until it shuts down at 2 s; pCPU 1 is free but outside the waiter's affinity
        assertThat(Seconds.of(d.vms().get(1).completionNanos())).isCloseTo(3.0, within(0.001));
        assertThat(Seconds.of(d.vms().get(1).runnableWaitNanosAllVcpus())).isCloseTo(2.0, within(0.001));
        assertThat(Seconds.of(d.pcpus().get(1).busyNanos())).isZero();
    }
}
