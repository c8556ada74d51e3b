package io.schedlab.engine.workloads;

import static io.schedlab.engine.workloads.EngineRuns.host;
import static io.schedlab.engine.workloads.EngineRuns.run;
import static io.schedlab.engine.workloads.EngineRuns.spec;
import static io.schedlab.engine.workloads.EngineRuns.vm;
import static io.schedlab.engine.workloads.EngineRuns.vmResult;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.schedlab.engine.Seconds;
import io.schedlab.engine.output.ResultDocument;
import io.schedlab.engine.output.VmResult;
import io.schedlab.engine.spec.ExperimentSpec.StopCondition;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Workloads through the real engine (static policy: placement is fixed, so the arithmetic is transparent). */
class WorkloadsEndToEndTest {

    private static double buildSeconds(int parallelism, int pcpus) {
        ResultDocument doc = run(spec(host(1, pcpus, 1), "static", StopCondition.ALL_COMPLETE, 600,
                List.of(vm("guest", 4, null, null, null, "parallel-build",
                        Map.of("parallelism", parallelism, "jobs", 200, "jobMeanMs", 20.0, "serialTailMs", 200.0)))));
        VmResult guest = vmResult(doc, "guest");
        assertThat(guest.workloadDetails()).containsEntry("jobsCompleted", 200.0).containsEntry("complete", 1.0);
        return guest.headline().value();
    }

    @Test
    void parallelBuildElapsedFallsWithParallelismUntilTheVcpusRunOut() {
        double j1 = buildSeconds(1, 4);
        double j2 = buildSeconds(2, 4);
        double j4 = buildSeconds(4, 4);
        double j8 = buildSeconds(8, 4);
        System.out.printf("parallel-build j1 %.3f j2 %.3f j4 %.3f j8 %.3f%n", j1, j2, j4, j8);
        assertThat(j2).isLessThan(j1 * 0.6);
        assertThat(j4).isLessThan(j2 * 0.7);
        // 4 vCPUs: 8 job slots cannot beat 4 by much (the guest time-shares them).
        assertThat(j8).isGreaterThan(j4 * 0.9);
    }

    private static double memoryThroughputPerThread(int threads, int memoryNode) {
        return memoryThroughputPerThread(threads, memoryNode, Map.of("threads", threads, "streamMBps", 5000.0,
                "mode", "stream"));
    }

    private static double memoryThroughputPerThread(int threads, int memoryNode, Map<String, Object> params) {
        // 2 sockets x 4 cores, one node per socket; the VM's vCPUs are pinned to socket 0.
        ResultDocument doc = run(spec(EngineRuns.numaHost(2, 4, 10_000), "static", StopCondition.DURATION, 0.5,
                List.of(vm("vm", threads, List.of(0, 1, 2, 3).subList(0, threads), List.of(0, 1, 2, 3), memoryNode,
                        "memory-bandwidth", params))));
        VmResult r = vmResult(doc, "vm");
        assertThat(r.headline().unit()).isEqualTo("MB/s");
        return r.headline().value() / threads;
    }

    @Test
    void memoryThroughputFallsWhenStreamsShareANodeAndWhenRemote() {
        double solo = memoryThroughputPerThread(1, 0);
        double four = memoryThroughputPerThread(4, 0);
        double remote = memoryThroughputPerThread(1, 1);
        System.out.printf("memory-bandwidth per thread: solo %.0f, 4 streams %.0f, remote %.0f MB/s%n", solo, four,
                remote);
        assertThat(solo).isGreaterThan(4000);
        // 4 x 5000 MB/s of demand on a 10 GB/s node: each stream gets about a quarter of the node.
        assertThat(four).isLessThan(solo * 0.6);
        assertThat(remote).isLessThan(solo * 0.9);
    }

    @Test
    void sysbenchDefaultsStayInTheCachesWhereTheNodeDoesNotMatter() {
        // sysbench memory's 1 KiB global block lives in L1: neither sharing the node nor remote memory slows it.
        double solo = memoryThroughputPerThread(1, 0, Map.of("threads", 1));
        double four = memoryThroughputPerThread(4, 0, Map.of("threads", 4));
        double remote = memoryThroughputPerThread(1, 1, Map.of("threads", 1));
        assertThat(four).isCloseTo(solo, within(solo * 0.01));
        assertThat(remote).isCloseTo(solo, within(solo * 0.01));
        // a 64 MiB block exceeds the 8 MiB LLC: it streams from the node, and remote memory is slower
        double big = memoryThroughputPerThread(1, 0, Map.of("threads", 1, "blockKb", 65536));
        double bigRemote = memoryThroughputPerThread(1, 1, Map.of("threads", 1, "blockKb", 65536));
        assertThat(big).isLessThan(solo * 0.8);
        assertThat(bigRemote).isLessThan(big * 0.9);
    }

    /** ebizzy VM of 4 vCPUs on pCPUs 0-3, optionally with a 2-vCPU CPU hog sharing pCPUs 0 and 1. */
    private static VmResult ebizzy(boolean withHog, int locks) {
        List<io.schedlab.engine.spec.VmSpec> list = new java.util.ArrayList<>();
        list.add(vm("ebizzy", 4, List.of(0, 1, 2, 3), null, null, "spinlock",
                Map.of("outsideUs", 20.0, "insideUs", 10.0, "locks", locks)));
        if (withHog) {
            list.add(vm("hog", 2, List.of(0, 1), null, null, "cpu-loop", Map.of("threads", 2, "workSeconds", 0.0)));
        }
        ResultDocument doc = run(spec(host(1, 4, 1), "static", StopCondition.DURATION, 3, list));
        VmResult r = vmResult(doc, "ebizzy");
        System.out.printf("spinlock: locks=%d hog=%s records/s %.0f, spin s %.3f, cpu s %.3f%n", locks, withHog,
                r.headline().value(), Seconds.of(r.spinNanosAllVcpus()), Seconds.of(r.cpuNanosAllVcpus()));
        return r;
    }

    @Test
    void spinlockThroughputFallsBeyondCpuShareWhenLockHoldersArePreempted() {
        // Control: the same threads and hog, but 1024 locks, so waiting is rare: throughput falls only by the
        // CPU the hog takes (ebizzy keeps 3 of 4 pCPUs' worth).
        double cpuShareOnly = ebizzy(true, 1024).headline().value() / ebizzy(false, 1024).headline().value();
        // One shared lock: when the hog preempts a vCPU whose thread holds (or is next in line for) the lock,
        // the threads on the other vCPUs spin until that vCPU runs again, a whole slice later.
        VmResult alone = ebizzy(false, 1);
        VmResult overcommitted = ebizzy(true, 1);
        double withPreemptedHolders = overcommitted.headline().value() / alone.headline().value();
        System.out.printf("spinlock overcommitted/alone: many locks %.3f, one lock %.3f%n", cpuShareOnly,
                withPreemptedHolders);
        assertThat(cpuShareOnly).isGreaterThan(0.65);
        assertThat(withPreemptedHolders).isLessThan(cpuShareOnly - 0.05);
        double spinShareAlone = Seconds.of(alone.spinNanosAllVcpus()) / Seconds.of(alone.cpuNanosAllVcpus());
        double spinShareOvercommitted = Seconds.of(overcommitted.spinNanosAllVcpus()) / Seconds.of(overcommitted.cpuNanosAllVcpus());
        assertThat(spinShareOvercommitted).isGreaterThan(spinShareAlone * 1.4);
    }

    @Test
    void interactiveLatencyIsLowAloneAndHighBehindACpuHog() {
        Map<String, Object> params = Map.of("thinkMeanMs", 5.0, "burstMeanUs", 100.0);
        ResultDocument alone = run(spec(host(1, 1, 1), "static", StopCondition.DURATION, 2,
                List.of(vm("ui", 1, List.of(0), null, null, "interactive", params))));
        ResultDocument hogged = run(spec(host(1, 1, 1), "static", StopCondition.DURATION, 2,
                List.of(vm("ui", 1, List.of(0), null, null, "interactive", params),
                        vm("hog", 1, List.of(0), null, null, "cpu-loop", Map.of("workSeconds", 0.0)))));
        double p99Alone = vmResult(alone, "ui").headline().value();
        double p99Hogged = vmResult(hogged, "ui").headline().value();
        System.out.printf("interactive p99 wake-up latency: alone %.1f us, behind a hog %.1f us%n", p99Alone,
                p99Hogged);
        assertThat(vmResult(alone, "ui").workloadDetails().get("wakeups")).isGreaterThan(200);
        assertThat(p99Alone).isLessThan(100);
        assertThat(p99Hogged).isGreaterThan(1000);
        // Cross-check with the engine's own thread-ready -> running measurement: same wake-ups; the guest's
        // view (up to the first useful instruction) is never shorter.
        VmResult ui = vmResult(hogged, "ui");
        assertThat(ui.wakeLatency().count()).isEqualTo(ui.workloadDetails().get("wakeups").longValue());
        assertThat(p99Hogged * 1e3).isGreaterThanOrEqualTo(ui.wakeLatency().p99Nanos() * 0.99);
    }

    @Test
    void traceReplayIsStretchedOnlyWhenItsPcpuIsShared() {
        String csv = "vcpu,run_us,sleep_us\n0,2000,1000\n0,3000,500\n0,1000,0\n";
        ResultDocument alone = run(spec(host(1, 1, 1), "static", StopCondition.ALL_COMPLETE, 10,
                List.of(vm("t", 1, List.of(0), null, null, "trace", Map.of("csv", csv)))));
        ResultDocument shared = run(spec(host(1, 1, 1), "static", StopCondition.ALL_COMPLETE, 10,
                List.of(vm("t", 1, List.of(0), null, null, "trace", Map.of("csv", csv)),
                        vm("hog", 1, List.of(0), null, null, "cpu-loop", Map.of("workSeconds", 1.0)))));
        double stretchAlone = vmResult(alone, "t").workloadDetails().get("stretch");
        double stretchShared = vmResult(shared, "t").workloadDetails().get("stretch");
        System.out.printf("trace stretch: alone %.3f, shared %.3f%n", stretchAlone, stretchShared);
        assertThat(stretchAlone).isBetween(1.0, 1.05);
        assertThat(stretchShared).isGreaterThan(1.5);
    }
}
