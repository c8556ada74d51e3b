package io.schedlab.engine.policies.linux;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.output.ResultDocument;
import io.schedlab.engine.spec.HostThreadSpec;
import io.schedlab.engine.spec.SchedulerSpec;
import io.schedlab.engine.spec.VmSpec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Group scheduling (kernel/sched/fair.c at v6.6: task_group, calc_group_shares): on one CPU two busy vCPU threads
 * of a VM in a cgroup share one group entity of the root group's weight, so against one busy root-group host thread
 * they get half the CPU together, not the two thirds they get as three flat tasks.
 */
class TaskGroupSchedulingTest {
    private static final double SECONDS = 2;

    private static ResultDocument run(String policy, String cgroup) {
        HostThreadSpec host = new HostThreadSpec("host", 1, 0, LinuxRuns.endlessLoop(1), null, List.of(0), null);
        VmSpec guest = new VmSpec("guest", 2, null, null, List.of(0), null, null, null, null, null, null,
                LinuxRuns.endlessLoop(2), Map.of("cgroup", cgroup), null);
        return LinuxRuns.run(LinuxRuns.spec(LinuxRuns.host(1, 1, 1), new SchedulerSpec(policy, Map.of(), "kvm",
                List.of(host)), SECONDS, List.of(guest)));
    }

    private static double hostShare(ResultDocument d) {
        double host = LinuxRuns.vm(d, "host").cpuNanosAllVcpus();
        double guest = LinuxRuns.vm(d, "guest").cpuNanosAllVcpus();
        return host / (host + guest);
    }

    @ParameterizedTest
    @ValueSource(strings = {"cfs", "eevdf"})
    void aGroupsTasksShareOneEntityAgainstARootTask(String policy) {
        assertThat(hostShare(run(policy, ""))).as("flat: one task of three").isBetween(0.30, 0.37);
        assertThat(hostShare(run(policy, "machine.slice"))).as("grouped: the root task against one group entity")
                .isBetween(0.46, 0.54);
    }
}
