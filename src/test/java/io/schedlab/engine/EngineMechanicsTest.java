package io.schedlab.engine;

import static io.schedlab.engine.TestSpecs.cpuLoop;
import static io.schedlab.engine.TestSpecs.host;
import static io.schedlab.engine.TestSpecs.pin;
import static io.schedlab.engine.TestSpecs.spec;
import static io.schedlab.engine.TestSpecs.vm;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.schedlab.engine.costs.CostModel;
import io.schedlab.engine.recording.TraceSink;
import io.schedlab.engine.policies.reference.NullPolicy;
import io.schedlab.engine.policies.reference.StaticPolicy;
import io.schedlab.engine.registry.Registry;
import io.schedlab.engine.output.ResultDocument;
import io.schedlab.engine.output.VmResult;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.HostSpec;
import io.schedlab.engine.spec.Limits;
import io.schedlab.engine.spec.NumaNodeSpec;
import io.schedlab.engine.spec.SchedulerSpec;
import io.schedlab.engine.spec.VmSpec;
import io.schedlab.engine.spec.WorkloadSpec;
import io.schedlab.engine.workloads.CpuLoopWorkload;
import io.schedlab.engine.workloads.IdleWorkload;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import io.schedlab.engine.run.RunControl;
import io.schedlab.engine.run.RunCancelledException;
import io.schedlab.engine.run.RunLimitExceededException;

/** Each engine mechanism (SMT, NUMA bandwidth, cold caches, guest time sharing, spinlocks, latency, trace, control) in isolation. */
class EngineMechanicsTest {
    private final Engine engine;

    EngineMechanicsTest() {
        Registry r = new Registry();
        r.register(StaticPolicy.descriptor());
        r.register(NullPolicy.descriptor());
        r.register(IdleWorkload.descriptor());
        r.register(CpuLoopWorkload.descriptor());
        r.register(TestWorkloads.stream());
        r.register(TestWorkloads.locker());
        engine = new Engine(r).withSelfCheck();
    }

    private ResultDocument run(ExperimentSpec s) {
        return run(s, Limits.defaults(), RunControl.NONE);
    }

    private ResultDocument run(ExperimentSpec s, Limits limits, RunControl control) {
        Validation v = engine.validate(s, limits);
        assertThat(v.violations()).isEmpty();
        return engine.run(v.normalized(), limits, control);
    }

    private static VmResult vmNamed(ResultDocument d, String name) {
        return d.vms().stream().filter(v -> v.name().equals(name)).findFirst().orElseThrow();
    }

    private static final double SMT = 0.6; // CostModel default smtFactor

    @Test
    void busySmtSiblingSlowsBothThreads() {
        ResultDocument smt = run(spec(host(1, 1, 2), "null", 10,
                List.of(cpuLoop("a", 0, 1.0), cpuLoop("b", 1, 1.0)), List.of()));
        ResultDocument noSmt = run(spec(host(1, 2, 1), "null", 10,
                List.of(cpuLoop("a", 0, 1.0), cpuLoop("b", 1, 1.0)), List.of()));
        assertThat(Seconds.of(vmNamed(smt, "a").completionNanos())).isCloseTo(1.0 / SMT, within(0.001));
        assertThat(Seconds.of(vmNamed(noSmt, "a").completionNanos())).isCloseTo(1.0, within(0.001));
    }

    @Test
    void smtSlowdownEndsWhenTheSiblingGoesIdle() {
        // b needs 0.3 s: both run at 0.6 until b is done (0.5 s), then a runs alone at full speed.
        ResultDocument d = run(spec(host(1, 1, 2), "null", 10,
                List.of(cpuLoop("a", 0, 1.0), cpuLoop("b", 1, 0.3)), List.of()));
        assertThat(Seconds.of(vmNamed(d, "b").completionNanos())).isCloseTo(0.3 / SMT, within(0.001));
        assertThat(Seconds.of(vmNamed(d, "a").completionNanos())).isCloseTo(0.5 + (1.0 - 0.3), within(0.001));
    }

    private static ExperimentSpec streams(int threads, int node, List<Integer> placement) {
        HostSpec h = new HostSpec(2, 4, 1, List.of(new NumaNodeSpec(List.of(0), 16384, 10_000.0),
                new NumaNodeSpec(List.of(1), 16384, 10_000.0)), null, null, null);
        VmSpec v = new VmSpec("mem", threads, null, null, null, null, null, null, node, placement, null,
                new WorkloadSpec("stream", Map.of("threads", threads, "workMs", 1000)));
        return new ExperimentSpec("streams", null, 1L, 10.0, ExperimentSpec.StopCondition.ALL_COMPLETE, h,
                new SchedulerSpec("null", null), null, List.of(v), null, null);
    }

    @Test
    void memoryStreamsShareTheirNodeBandwidth() {
        // default demand 5000 MB/s per stream, node 10000 MB/s: 2 streams fit, 4 get half speed each.
        ResultDocument two = run(streams(2, 0, List.of(0, 1)));
        ResultDocument four = run(streams(4, 0, List.of(0, 1, 2, 3)));
        assertThat(Seconds.of(vmNamed(two, "mem").completionNanos())).isCloseTo(1.0, within(0.001));
        assertThat(Seconds.of(vmNamed(four, "mem").completionNanos())).isCloseTo(2.0, within(0.002));
        assertThat(four.totals().numaLocalFraction()).isEqualTo(1.0);
    }

    @Test
    void remoteMemoryIsSlowerBySlitDistance() {
        // memory on node 1, vCPUs on socket 0 (node 0): distance 21 -> rate 10/21
        ResultDocument remote = run(streams(1, 1, List.of(0)));
        assertThat(Seconds.of(vmNamed(remote, "mem").completionNanos())).isCloseTo(2.1, within(0.002));
        assertThat(remote.totals().numaLocalFraction()).isEqualTo(0.0);
    }

    @Test
    void crossSocketMigrationPaysAColdCacheDebtAndTheIdleSwitchFlushesTheTlb() {
        CostModel costs = CostModel.from(engine.validate(spec(host(2, 2, 1), "static", 10, List.of(cpuLoop("a", 0, 1)),
                List.of()), Limits.defaults()).normalized().costs());
        // CacheModel: another socket's LLC holds none of the 2 MiB working set (refilled from memory, which
        // fills the L2 too); another core of the same socket lost only its 256 KiB L2 share (from the LLC), and of
        // that a 2 MiB set (8 L2s) owes only the extra misses of its reload: 1 - 7 ln(8/7) of the L2.
        double mib = 1024.0 * 1024;
        long crossDebt = Math.round(costs.coldCacheWorkingSetKb() * 1024.0 / (costs.memoryRefillMBps() * mib) * 1e9);
        double l2Reload = (1 - 7 * Math.log(8.0 / 7)) * 256 * 1024.0;
        long sameSocketDebt = Math.round(l2Reload / (costs.llcRefillMBps() * mib) * 1e9);
        ResultDocument stay = run(spec(host(2, 2, 1), "static", 10, List.of(cpuLoop("a", 0, 1.0)),
                List.of(pin(0.5, "a", 0, 1))));
        ResultDocument cross = run(spec(host(2, 2, 1), "static", 10, List.of(cpuLoop("a", 0, 1.0)),
                List.of(pin(0.5, "a", 0, 2))));
        double extra = Seconds.of(vmNamed(cross, "a").completionNanos()) - Seconds.of(vmNamed(stay, "a").completionNanos());
        assertThat(extra).isCloseTo((crossDebt - sameSocketDebt) / 1e9, within(1e-6));
        assertThat(cross.totals().migrations().crossSocket()).isEqualTo(1);
        assertThat(stay.totals().migrations().sameSocket()).isEqualTo(1);
        // switching an idle pCPU to a vCPU last run elsewhere costs switch + TLB flush (seed 000: ~2 us)
        assertThat(cross.distributions().contextSwitch().maxNanos()).isEqualTo(2000);
    }

    private static ExperimentSpec withRefillFraction(ExperimentSpec s, double fraction) {
        return new ExperimentSpec(s.name(), s.labels(), s.seed(), s.durationSeconds(), s.stopWhen(), s.host(),
                s.scheduler(), Map.of("refillProgressFraction", fraction), s.vms(), s.timeline(), s.trace());
    }

    /** a's 1 s loop visits the other socket (its LLC holds none of the 2 MiB set) for {@code visitSeconds}. */
    private static ExperimentSpec visitTheOtherSocket(double visitSeconds) {
        return spec(host(2, 2, 1), "static", 10, List.of(cpuLoop("a", 0, 1.0)),
                List.of(pin(0.5, "a", 0, 2), pin(0.5 + visitSeconds, "a", 0, 0)));
    }

    private static long nanosOn(ResultDocument d, int pcpu) {
        return vmNamed(d, "a").vcpus().get(0).ranOn().stream().filter(t -> t.pcpu() == pcpu)
                .mapToLong(io.schedlab.engine.output.VcpuResult.PcpuTime::nanos).sum();
    }

    @Test
    void aRunShorterThanItsRefillProgressesAtTheRefillFraction() {
        // 2 MiB from memory at 10,000 MB/s: a 0.2 ms debt, stretched to 0.4 ms at fraction 0.5; the visit is 0.1 ms
        // and the return finds socket 0's caches as a left them (nothing else ran), so only the visit differs
        ExperimentSpec visit = visitTheOtherSocket(0.0001);
        ResultDocument stall = run(withRefillFraction(visit, 0.0));
        ResultDocument overlap = run(withRefillFraction(visit, 0.5));
        long visitNanos = nanosOn(overlap, 2);
        assertThat(visitNanos).isEqualTo(nanosOn(stall, 2)).isBetween(50_000L, 200_000L);
        // fraction 0: the whole visit is lost; 0.5: half of it is work done
        assertThat(vmNamed(stall, "a").completionNanos() - vmNamed(overlap, "a").completionNanos())
                .isCloseTo(visitNanos / 2, within(2L));
    }

    @Test
    void aRunLongerThanItsRefillLosesExactlyTheDebtWhateverTheFraction() {
        ExperimentSpec visit = visitTheOtherSocket(0.01); // 10 ms, longer than the stretched refill
        long stall = vmNamed(run(withRefillFraction(visit, 0.0)), "a").completionNanos();
        for (double fraction : new double[] {0.5, 0.9}) {
            long overlap = vmNamed(run(withRefillFraction(visit, fraction)), "a").completionNanos();
            assertThat(overlap).as("fraction %s", fraction).isCloseTo(stall, within(2L));
        }
    }

    @Test
    void guestTimeSharesThreadsBeyondItsVcpus() {
        ResultDocument d = run(spec(host(1, 1, 1), "static", 10,
                List.of(vm("g", 1, List.of(0), "cpu-loop", Map.of("threads", 3, "workSeconds", 1.0))), List.of()));
        // three 1 s threads on one vCPU, 4 ms guest slices: all finish near 3 s
        assertThat(Seconds.of(vmNamed(d, "g").completionNanos())).isCloseTo(3.0, within(0.01));
    }

    @Test
    void aPreemptedLockHolderLeavesTheOtherVcpuSpinning() {
        Map<String, Object> p = Map.of("threads", 2, "rounds", 1000, "holdUs", 77, "thinkUs", 31); // a cycle that does not divide the 30 ms slice
        ResultDocument apart = run(spec(host(1, 2, 1), "static", 60,
                List.of(vm("g", 2, List.of(0, 1), "locker", p)), List.of()));
        ResultDocument together = run(spec(host(1, 2, 1), "static", 600,
                List.of(vm("g", 2, List.of(1, 1), "locker", p)), List.of()));
        VmResult a = vmNamed(apart, "g");
        VmResult t = vmNamed(together, "g");
        // on separate pCPUs a waiter spins at most one hold (77 us) per round
        assertThat(Seconds.of(a.spinNanosAllVcpus())).isLessThan(2 * 1000 * 77e-6);
        // sharing a pCPU, the holder is preempted for whole 30 ms slices while the other spins
        assertThat(Seconds.of(t.spinNanosAllVcpus())).isGreaterThan(5 * Seconds.of(a.spinNanosAllVcpus()));
        assertThat(Seconds.of(t.completionNanos())).isGreaterThan(2 * Seconds.of(a.completionNanos()));
    }

    @Test
    void wakeLatencyIncludesWaitingBehindAStaticSlice() {
        VmSpec dom0 = vm("dom0", 1, List.of(0), "idle", Map.of("wakeIntervalMs", 10, "jitter", 0.5));
        ResultDocument alone = run(spec(host(1, 1, 1), "static", 2, List.of(dom0), List.of()));
        ResultDocument shared = run(spec(host(1, 1, 1), "static", 2,
                List.of(dom0, vm("hog", 1, List.of(0), "cpu-loop", Map.of("workSeconds", 0.0))), List.of()));
        assertThat(alone.distributions().wakeLatency().maxNanos()).isLessThan(10_000);
        assertThat(shared.distributions().wakeLatency().p90Nanos()).isGreaterThan(1_000_000);
        assertThat(vmNamed(shared, "dom0").wakeLatency().maxNanos()).isLessThanOrEqualTo(31_000_000);
    }

    @Test
    void traceIsStreamedAndBounded() {
        List<String> records = new ArrayList<>();
        RunControl control = new RunControl() {
            public void progress(double f, long t, long n) {
            }

            public boolean cancelRequested() {
                return false;
            }

            public TraceSink traceSink() {
                return (t, p, e, vm, v) -> records.add(e);
            }
        };
        ExperimentSpec s = spec(host(1, 2, 1), "static", 10, List.of(cpuLoop("a", 1, 0.5), cpuLoop("b", 1, 0.5)),
                List.of());
        ExperimentSpec traced = new ExperimentSpec(s.name(), s.labels(), s.seed(), s.durationSeconds(), s.stopWhen(),
                s.host(), s.scheduler(), s.costs(), s.vms(), s.timeline(),
                new io.schedlab.engine.spec.TraceSpec(true, 25L));
        ResultDocument d = run(traced, Limits.defaults(), control);
        assertThat(records).hasSize(25).contains("wake", "switch");
        assertThat(d.totals().traceRecords()).isEqualTo(25);
    }

    @Test
    void cancellationStopsTheRunAndProgressIsReported() {
        List<Double> fractions = new ArrayList<>();
        RunControl cancelLater = new RunControl() {
            public void progress(double f, long t, long n) {
                fractions.add(f);
            }

            public boolean cancelRequested() {
                return fractions.size() >= 3;
            }
        };
        ExperimentSpec s = spec(host(1, 1, 1), "static", 3600, List.of(
                vm("d", 1, List.of(0), "idle", Map.of("wakeIntervalMs", 1, "burstUs", 10))), List.of());
        assertThatThrownBy(() -> run(s, Limits.defaults(), cancelLater)).isInstanceOf(RunCancelledException.class);
        assertThat(fractions).hasSize(3).isSorted();
        assertThat(fractions.get(0)).isGreaterThan(0.0).isLessThan(1.0);
    }

    @Test
    void theEventBoundStopsARunawayRun() {
        Limits small = new Limits(1024, 8192, 1024, 86_400, 10_000, 10_000, 1_000_000);
        ExperimentSpec s = spec(host(1, 1, 1), "static", 3600, List.of(
                vm("d", 1, List.of(0), "idle", Map.of("wakeIntervalMs", 1, "burstUs", 10))), List.of());
        assertThatThrownBy(() -> run(s, small, RunControl.NONE)).isInstanceOf(RunLimitExceededException.class)
                .hasMessageContaining("10000");
    }
}
