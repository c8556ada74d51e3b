package io.schedlab.engine.policies.credit2;

import static io.schedlab.engine.policies.PolicyRuns.loops;
import static io.schedlab.engine.policies.PolicyRuns.vm;
import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.Seconds;
import io.schedlab.engine.model.Pcpu;
import io.schedlab.engine.model.Vcpu;
import io.schedlab.engine.model.VcpuState;
import io.schedlab.engine.policies.Decision;
import io.schedlab.engine.policies.PolicyRuns;
import io.schedlab.engine.output.ResultDocument;
import io.schedlab.engine.sim.SimulatorProbe;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.VmSpec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class Credit2PolicyTest {
    private static final long MS = 1_000_000L;
    private static final long US = 1_000L;

    @Test
    void weightsTwoToOneOnOnePcpuGiveTwoToOneShares() {
        ResultDocument doc = PolicyRuns.run("credit2", Map.of(), 1, 1, 1, 30.0,
                List.of(loops("a", 512, 0, 1), loops("b", 256, 0, 1)));
        assertThat((double) vm(doc, "a").cpuNanosAllVcpus() / vm(doc, "b").cpuNanosAllVcpus()).isBetween(2.0 * 0.98, 2.0 * 1.02);
    }

    @Test
    void lighterVcpuBurnsAtMaxWeightOverWeightAndGetsAShorterSlice() {
        // heavy's vCPU is assigned to the run queue but sleeps for an hour first: max weight 512
        SimulatorProbe sim = PolicyRuns.probe("credit2", Map.of("ratelimitUs", 0), 1, 1, 1, 1.0,
                List.of(loops("a", 256, 0, 1, 0), weighted(PolicyRuns.bursts("heavy", 1, 1_000, 3_600_000, null, null),
                        512)));
        Credit2Policy pol = sim.policy(Credit2Policy.class);
        Vcpu va = sim.vcpu("a", 0);
        sim.runUntil(1 * MS);
        assertThat(va.state).isEqualTo(VcpuState.RUNNING);
        long ran = sim.cpuNanos("a");
        Decision d = pol.doSchedule(sim.pcpu(0), va, false);
        // ~1 ms at 512/256 burns ~2 ms of credit: ~8 ms left, which lasts 8 x 256/512 = ~4 ms.
        assertThat(Credit2Policy.creditOf(va)).isBetween(10 * MS - 2 * (1 * MS), 10 * MS - 2 * ran);
        assertThat(d.next()).isSameAs(va);
        assertThat(d.runNanos()).isEqualTo(Credit2Policy.creditOf(va) * 256 / 512);
    }

    private static VmSpec weighted(VmSpec vm, int weight) {
        return new VmSpec(vm.name(), vm.vcpus(), weight, vm.cap(), vm.hardAffinity(), vm.softAffinity(),
                vm.vcpuAffinity(), vm.memoryMb(), vm.numaNode(), vm.placement(), vm.startAtSeconds(), vm.workload());
    }

    @Test
    void runtimeIsClampedBetweenMinAndMaxTimer() {
        SimulatorProbe sim = PolicyRuns.probe("credit2", Map.of("ratelimitUs", 0), 1, 1, 1, 1.0,
                List.of(loops("a", 256, 0, 1, 0)));
        Credit2Policy pol = sim.policy(Credit2Policy.class);
        Vcpu va = sim.vcpu("a", 0);
        sim.runUntil(10 * US);
        Pcpu p = sim.pcpu(0);
        assertThat(va.state).isEqualTo(VcpuState.RUNNING);
        // alone at max weight: its credit (10 ms less the few us it ran) is its time, under the 10 ms max timer
        Decision first = pol.doSchedule(p, va, false);
        assertThat(first.runNanos()).isEqualTo(Credit2Policy.creditOf(va)).isBetween(10 * MS - 10 * US, 10 * MS);
        sim.runUntil(9_800 * US);
        // ~0.2 ms of credit left: raised to the 500 us minimum
        Decision d = pol.doSchedule(p, va, false);
        assertThat(d.runNanos()).isEqualTo(500 * US);
    }

    @Test
    void resetAddsCreditInitAndClipsToCarryover() {
        SimulatorProbe sim = PolicyRuns.probe("credit2", Map.of(), 1, 1, 1, 1.0,
                List.of(loops("a", 256, 0, 1, 0), PolicyRuns.once("idle", 256, 0.00001, 0)));
        Credit2Policy pol = sim.policy(Credit2Policy.class);
        sim.runUntil(200 * MS);
        assertThat(pol.resetCount()).isGreaterThan(10);
        // The blocked vCPU (10 us of work at the start) is clipped at CREDIT_INIT + carry-over by every reset.
        assertThat(Credit2Policy.creditOf(sim.vcpu("idle", 0))).isLessThanOrEqualTo(10_500 * US);
        assertThat(Credit2Policy.creditOf(sim.vcpu("idle", 0))).isGreaterThan(10 * MS);
        assertThat(Credit2Policy.creditOf(sim.vcpu("a", 0))).isLessThanOrEqualTo(10_500 * US);
    }

    @Test
    void capOfFiftyPercentHoldsWithinTwoPercentFrom410() {
        ResultDocument doc = PolicyRuns.run("credit2", Map.of(), 1, 2, 1, 10.0, List.of(loops("a", 256, 50, 1)));
        assertThat(Seconds.of(vm(doc, "a").cpuNanosAllVcpus()) / 10.0).isBetween(0.49, 0.51);
    }

    @Test
    void capIsIgnoredBefore410() {
        // The validator rejects a cap under 4.9 (/vms/0/cap); set it on the normalized spec to see credit2 ignore it.
        SimulatorProbe sim = SimulatorProbe.of(PolicyRuns.spec("credit2", Map.of("xenVersion", "4.9"), 1, 2, 1, 3.0,
                List.of(loops("a", 256, 0, 1, 0))), s -> withCap(s, 50));
        Credit2Policy pol = sim.policy(Credit2Policy.class);
        sim.runUntil(2_000 * MS);
        assertThat(pol.capsIgnored()).isTrue();
        assertThat((double) sim.cpuNanos("a") / (2_000 * MS)).isGreaterThan(0.99);
    }

    private static ExperimentSpec withCap(ExperimentSpec s, int cap) {
        VmSpec v = s.vms().get(0);
        VmSpec capped = new VmSpec(v.name(), v.vcpus(), v.weight(), cap, v.hardAffinity(), v.softAffinity(),
                v.vcpuAffinity(), v.memoryMb(), v.numaNode(), v.placement(), v.startAtSeconds(), v.workload(),
                v.schedParams(), v.vcpuSchedParams());
        return new ExperimentSpec(s.name(), s.labels(), s.seed(), s.durationSeconds(), s.stopWhen(), s.host(),
                s.scheduler(), s.costs(), List.of(capped), s.timeline(), s.trace());
    }

    @Test
    void twoLoopsPlacedOnOnePcpuRunInParallel() {
        ResultDocument doc = PolicyRuns.run("credit2", Map.of(), 1, 2, 1, 5.0,
                List.of(loops("a", 256, 0, 1, 1), loops("b", 256, 0, 1, 1)));
        assertThat(Seconds.of(vm(doc, "a").cpuNanosAllVcpus())).isGreaterThan(4.9);
        assertThat(Seconds.of(vm(doc, "b").cpuNanosAllVcpus())).isGreaterThan(4.9);
    }

    @Test
    void balancerSpreadsLoopsAcrossPerCoreRunqueues() {
        SimulatorProbe sim = PolicyRuns.probe("credit2", Map.of("runqueue", "core"), 1, 4, 2, 21.0,
                List.of(loops("guest", 256, 0, 6, 0, 0, 0, 0, 0, 0)));
        Credit2Policy pol = sim.policy(Credit2Policy.class);
        sim.runUntil(15_000 * MS);
        long before = sim.cpuNanos("guest");
        sim.runUntil(20_000 * MS);
        assertThat(pol.runqueueCount()).isEqualTo(4);
        assertThat(pol.balanceCount()).isGreaterThan(0);
        // All six started on run queue 0 (2 pCPUs); once balanced (load window ~1 s), 6 loops on
        // 8 pCPUs all run nearly all the time.
        assertThat((double) (sim.cpuNanos("guest") - before) / (6 * 5_000 * MS)).isGreaterThan(0.97);
        int[] perRq = new int[4];
        for (int i = 0; i < 6; i++) {
            perRq[Credit2Policy.runqueueOfVcpu(sim.vcpu("guest", i))]++;
        }
        for (int c : perRq) {
            assertThat(c).isBetween(1, 2);
        }
    }

    @Test
    void modernTicklePrefersAFullyIdleCoreLegacyTakesTheSibling() {
        for (String version : new String[] {"4.6", "4.8"}) {
            VmSpec second = loops("second", 256, 0, 1, 0);
            second = new VmSpec(second.name(), 1, 256, 0, null, null, null, null, null, List.of(0), 0.001,
                    second.workload());
            List<PolicyRuns.TraceRecord> trace = PolicyRuns.trace("credit2", Map.of("xenVersion", version), 1, 4, 2,
                    0.002, List.of(loops("first", 256, 0, 1, 0), second));
            int p1 = firstSwitchTo(trace, "first");
            int p2 = firstSwitchTo(trace, "second");
            boolean sameCore = p1 / 2 == p2 / 2; // pCPUs 2c and 2c+1 are the threads of core c
            if (version.equals("4.6")) {
                assertThat(sameCore).as("4.6 tickles any idle pCPU, from the first of the run queue").isTrue();
            } else {
                assertThat(sameCore).as("4.8 tickles a fully idle core first").isFalse();
            }
        }
    }

    private static int firstSwitchTo(List<PolicyRuns.TraceRecord> trace, String vm) {
        return trace.stream().filter(r -> r.event().equals("switch") && vm.equals(r.vm())).findFirst().orElseThrow()
                .pcpu();
    }

    @Test
    void softAffinityIsPreferredWhenThereIsRoom() {
        double[] out = PolicyRuns.softAffinityScenario("credit2");
        assertThat(out[0]).isGreaterThan(0.9);
        assertThat(out[1]).isGreaterThan(0);
    }

    @Test
    void yieldHandsThePcpuToTheNextRunnableRegardlessOfCredit() {
        SimulatorProbe sim = PolicyRuns.probe("credit2", Map.of(), 1, 1, 1, 1.0,
                List.of(loops("a", 256, 0, 1, 0), loops("b", 256, 0, 1, 0)));
        sim.runUntil(100 * US);
        Vcpu a = sim.vcpu("a", 0);
        Vcpu b = sim.vcpu("b", 0);
        Vcpu running = a.state == VcpuState.RUNNING ? a : b;
        Vcpu waiting = running == a ? b : a;
        sim.runUntil(200 * US);
        // within the rate limit a schedule keeps the running vCPU; a yield (csched2_unit_yield) gives the pCPU away
        sim.reschedule(0);
        sim.runUntil(205 * US);
        assertThat(running.state).as("rate limit: a plain schedule() keeps it").isEqualTo(VcpuState.RUNNING);
        assertThat(Credit2Policy.creditOf(running)).as("burnt by that schedule(): less credit than the waiter")
                .isLessThan(Credit2Policy.creditOf(waiting));
        sim.yieldVcpu(running);
        sim.runUntil(215 * US);
        assertThat(waiting.state).isEqualTo(VcpuState.RUNNING);
        assertThat(running.state).isEqualTo(VcpuState.RUNNABLE);
    }

    @Test
    void aBusyPcpuIsNotTickledBeforeItsVcpuRanTheRateLimitLessTolerance() {
        // a runs from ~1 us; b wakes at 0.5 ms: a ran < 1 ms - 50 us, is_preemptable says no though b
        // has more credit; c wakes at 0.96 ms, within the 50 us tolerance: its wake tickles the pCPU.
        List<PolicyRuns.TraceRecord> trace = PolicyRuns.trace("credit2", Map.of(), 1, 1, 1, 0.001,
                List.of(loops("a", 256, 0, 1), PolicyRuns.startingAt(loops("b", 256, 0, 1), 0.0005),
                        PolicyRuns.startingAt(loops("c", 256, 0, 1), 0.00096)));
        assertThat(trace).filteredOn(r -> r.event().equals("tickle") && r.timeNanos() == 500_000).isEmpty();
        assertThat(trace).filteredOn(r -> r.event().equals("switch") && "b".equals(r.vm())).isEmpty();
        assertThat(trace).filteredOn(r -> r.event().equals("tickle") && r.timeNanos() == 960_000).hasSize(1);
    }

    @Test
    void hardAffinityIsRespected() {
        ResultDocument doc = PolicyRuns.run("credit2", Map.of(), 1, 4, 1, 1.0,
                List.of(PolicyRuns.bursts("pinned", 3, 1_000, 1, List.of(2, 3), null)));
        for (int v = 0; v < 3; v++) {
            assertThat(PolicyRuns.secondsOn(doc, "pinned", v, 0) + PolicyRuns.secondsOn(doc, "pinned", v, 1)).isZero();
            assertThat(Seconds.of(vm(doc, "pinned").vcpus().get(v).cpuNanos())).isGreaterThan(0);
        }
    }
}
