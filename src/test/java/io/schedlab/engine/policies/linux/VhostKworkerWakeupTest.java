package io.schedlab.engine.policies.linux;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.output.ResultDocument;
import io.schedlab.engine.spec.HostThreadSpec;
import io.schedlab.engine.spec.SchedulerSpec;
import io.schedlab.engine.spec.VmSpec;
import io.schedlab.engine.spec.WorkloadSpec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A guest's kick wakes its vhost worker, whose signal wakes the kworker bound to the worker's CPU (LKML
 * 2023-11-16, "EEVDF/vhost regression"): under CFS the woken kworker, placed behind min_vruntime with its sleeper
 * credit, preempts the busy worker at once; under EEVDF it is placed with its lag, is not eligible before the
 * worker, and waits until the worker's slice ends at a tick (the worker's cond_resched() does not switch).
 */
class VhostKworkerWakeupTest {
    private static final String SENDER = "sender";
    private static final String RECEIVER = "receiver";
    private static final String VHOST = "vhost-q0";
    /** A 6 MiB window per connection keeps the worker's queue full, as a bulk stream does. */
    private static final int WINDOW_BYTES = 6 << 20;
    private static final double SECONDS = 0.2;

    private static ResultDocument run(String policy, List<String> serves) {
        HostThreadSpec vhost = new HostThreadSpec(VHOST, 2, 0, new WorkloadSpec("vhost-net", Map.of("queue", 0)),
                serves, List.of(0));
        return LinuxRuns.run(LinuxRuns.spec(LinuxRuns.host(1, 4, 1), new SchedulerSpec(policy, Map.of(), "kvm",
                List.of(vhost)), SECONDS, List.of(guest(SENDER, 1), guest(RECEIVER, 2))));
    }

    private static VmSpec guest(String name, int cpu) {
        return new VmSpec(name, 1, null, null, List.of(cpu), null, null, null, null, null, null,
                new WorkloadSpec("net-stream", Map.of("role", name, "connections", 4, "queues", 1,
                        "windowBytes", WINDOW_BYTES)));
    }

    private static long hostThreadWakeP99(ResultDocument d) {
        return LinuxRuns.vm(d, VHOST).wakeLatency().p99Nanos();
    }

    @Test
    void theGuestsKicksReachTheWorkerOnlyThroughTheGroupThatServesThem() {
        ResultDocument served = run("cfs", List.of(SENDER, RECEIVER));
        ResultDocument unserved = run("cfs", null);
        assertThat(LinuxRuns.vm(served, RECEIVER).headline().value()).isGreaterThan(1.0);
        assertThat(LinuxRuns.vm(served, VHOST).workloadDetails().get("interruptsInjected")).isGreaterThan(500.0);
        assertThat(LinuxRuns.vm(unserved, RECEIVER).headline().value()).isZero();
        assertThat(LinuxRuns.vm(unserved, VHOST).workloadDetails().get("chunksCopied")).isZero();
    }

    @Test
    void underEevdfTheWokenKworkerWaitsForTheBusyWorkersSliceUnderCfsItPreempts() {
        long cfs = hostThreadWakeP99(run("cfs", List.of(SENDER, RECEIVER)));
        long eevdf = hostThreadWakeP99(run("eevdf", List.of(SENDER, RECEIVER)));
        assertThat(cfs).as("cfs p99 wait of the host threads, ns").isLessThan(100_000);
        assertThat(eevdf).as("eevdf p99 wait of the host threads, ns").isGreaterThan(1_000_000);
    }
}
