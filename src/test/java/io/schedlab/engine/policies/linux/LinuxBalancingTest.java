package io.schedlab.engine.policies.linux;

import static io.schedlab.engine.policies.linux.LinuxRuns.endlessLoop;
import static io.schedlab.engine.policies.linux.LinuxRuns.host;
import static io.schedlab.engine.policies.linux.LinuxRuns.run;
import static io.schedlab.engine.policies.linux.LinuxRuns.spec;
import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.Seconds;
import io.schedlab.engine.output.ResultDocument;
import io.schedlab.engine.output.VmResult;
import io.schedlab.engine.spec.SchedulerSpec;
import io.schedlab.engine.spec.VmSpec;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Load balancing across domains: an idle CPU of another package pulls a waiting task; balanced queues stay put. */
class LinuxBalancingTest {

    private static VmSpec placed(String name, List<Integer> placement) {
        return new VmSpec(name, placement.size(), null, null, null, null, null, null, null, placement, null,
                endlessLoop(placement.size()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"cfs", "eevdf"})
    void anIdleCpuOfTheOtherPackagePullsAWaitingTask(String policy) {
        // two sockets of one CPU: wake placement stays in the waker's LLC, so only the balancer can use CPU 1
        ResultDocument doc = run(spec(host(2, 1, 1), new SchedulerSpec(policy, null), 1.0,
                List.of(placed("pair", List.of(0, 0)))));
        VmResult pair = LinuxRuns.vm(doc, "pair");
        // (a queued task pulled before it ever ran counts no migration: it has no previous CPU)
        assertThat(pair.vcpus()).anySatisfy(v -> assertThat(v.ranOn()).anySatisfy(t -> assertThat(t.pcpu()).isEqualTo(1)));
        assertThat(Seconds.of(pair.cpuNanosAllVcpus())).as("both CPUs busy after the first balance (interval 2 ms)").isGreaterThan(1.95);
        assertThat(Seconds.of(doc.pcpus().get(1).busyNanos())).isGreaterThan(0.97);
    }

    @ParameterizedTest
    @ValueSource(strings = {"cfs", "eevdf"})
    void balancedQueuesAreLeftAlone(String policy) {
        ResultDocument doc = run(spec(host(1, 4, 2), new SchedulerSpec(policy, null), 1.0,
                List.of(placed("spread", List.of(0, 2, 4, 6)))));
        VmResult spread = LinuxRuns.vm(doc, "spread");
        assertThat(spread.migrations().total()).isZero();
        assertThat(Seconds.of(spread.cpuNanosAllVcpus())).isGreaterThan(3.99);
    }
}
