package io.schedlab.engine.policies.credit2;

import static io.schedlab.engine.policies.PolicyRuns.loops;
import static io.schedlab.engine.policies.PolicyRuns.vm;
import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.Seconds;
import io.schedlab.engine.model.Pcpu;
import io.schedlab.engine.model.Vcpu;
import io.schedlab.engine.model.VcpuState;
import io.schedlab.engine.model.Vm;
import io.schedlab.engine.policies.Decision;
import io.schedlab.engine.policies.credit.PolicyTestHost;
import io.schedlab.engine.policies.credit.PolicyTestHost.Behaviour;
import io.schedlab.engine.policies.PolicyRuns;
import io.schedlab.engine.result.ResultDocument;
import io.schedlab.engine.spec.VmSpec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class Credit2PolicyTest {
    private static final long MS = 1_000_000L;
    private static final long US = 1_000L;

    private static Credit2Policy credit2(String version) {
        return new Credit2Policy(Credit2Params.defaults(version));
    }

    @Test
    void weightsTwoToOneOnOnePcpuGiveTwoToOneShares() {
        ResultDocument doc = PolicyRuns.run("credit2", Map.of(), 1, 1, 1, 30.0,
                List.of(loops("a", 512, 0, 1), loops("b", 256, 0, 1)));
        assertThat((double) vm(doc, "a").cpuNanosAllVcpus() / vm(doc, "b").cpuNanosAllVcpus()).isBetween(2.0 * 0.98, 2.0 * 1.02);
    }

    @Test
    void lighterVcpuBurnsAtMaxWeightOverWeightAndGetsAShorterSlice() {
        Credit2Policy pol = new Credit2Policy(Credit2Params.defaults("latest").withRatelimitUs(0));
        PolicyTestHost host = new PolicyTestHost(1, 1, 1).start(pol);
        Vm a = host.addVm("a", 256, 0, Behaviour.loop(), 0);
        host.addVm("heavy", 512, 0, false, Behaviour.loop(), 0); // assigned, never runs: max weight 512
        Vcpu va = a.vcpus.get(0);
        host.runUntil(1 * MS);
        assertThat(va.state).isEqualTo(VcpuState.RUNNING);
        Pcpu p = host.topology().pcpu(0);
        Decision d = pol.doSchedule(p, va, false);
        // 1 ms at 512/256 burns 2 ms of credit: 10 - 2 = 8 ms left, which lasts 8 x 256/512 = 4 ms.
        assertThat(Credit2Policy.creditOf(va)).isEqualTo(8 * MS);
        assertThat(d.next()).isSameAs(va);
        assertThat(d.runNanos()).isEqualTo(4 * MS);
    }

    @Test
    void runtimeIsClampedBetweenMinAndMaxTimer() {
        Credit2Policy pol = new Credit2Policy(Credit2Params.defaults("latest").withRatelimitUs(0));
        PolicyTestHost host = new PolicyTestHost(1, 1, 1).start(pol);
        Vm a = host.addVm("a", 256, 0, Behaviour.loop(), 0);
        Vcpu va = a.vcpus.get(0);
        host.runUntil(1);
        Pcpu p = host.topology().pcpu(0);
        // alone at max weight: 10 ms of credit -> 10 ms (= max timer)
        assertThat(pol.doSchedule(p, va, false).runNanos()).isEqualTo(10 * MS - 1);
        host.runUntil(9_800 * US);
        // ~0.2 ms of credit left: raised to the 500 us minimum
        Decision d = pol.doSchedule(p, va, false);
        assertThat(d.runNanos()).isEqualTo(500 * US);
    }

    @Test
    void resetAddsCreditInitAndClipsToCarryover() {
        Credit2Policy pol = credit2("latest");
        PolicyTestHost host = new PolicyTestHost(1, 1, 1).start(pol);
        Vm a = host.addVm("a", 256, 0, Behaviour.loop(), 0);
        Vm idle = host.addVm("idle", 256, 0, new Behaviour(10 * US, 1_000_000 * MS), 0);
        host.runUntil(200 * MS);
        assertThat(pol.resetCount()).isGreaterThan(10);
        // The mostly-blocked vCPU is clipped at CREDIT_INIT + carry-over by every reset.
        assertThat(Credit2Policy.creditOf(idle.vcpus.get(0))).isLessThanOrEqualTo(10_500 * US);
        assertThat(Credit2Policy.creditOf(idle.vcpus.get(0))).isGreaterThan(10 * MS);
        assertThat(Credit2Policy.creditOf(a.vcpus.get(0))).isLessThanOrEqualTo(10_500 * US);
    }

    @Test
    void capOfFiftyPercentHoldsWithinTwoPercentFrom410() {
        ResultDocument doc = PolicyRuns.run("credit2", Map.of(), 1, 2, 1, 10.0, List.of(loops("a", 256, 50, 1)));
        assertThat(Seconds.of(vm(doc, "a").cpuNanosAllVcpus()) / 10.0).isBetween(0.49, 0.51);
    }

    @Test
    void capIsIgnoredBefore410() {
        Credit2Policy pol = credit2("4.9");
        PolicyTestHost host = new PolicyTestHost(1, 2, 1).start(pol);
        Vm a = host.addVm("a", 256, 50, Behaviour.loop(), 0);
        host.runUntil(2_000 * MS);
        assertThat(pol.capsIgnored()).isTrue();
        assertThat((double) host.cpuTime(a) / (2_000 * MS)).isGreaterThan(0.99);
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
        Credit2Policy pol = new Credit2Policy(Credit2Params.defaults("latest").withRunqueue("core"));
        PolicyTestHost host = new PolicyTestHost(1, 4, 2).start(pol);
        Vm vm = host.addVm("guest", 256, 0, Behaviour.loop(), 0, 0, 0, 0, 0, 0);
        host.runUntil(15_000 * MS);
        long before = host.cpuTime(vm);
        host.runUntil(20_000 * MS);
        assertThat(pol.runqueueCount()).isEqualTo(4);
        assertThat(pol.balanceCount()).isGreaterThan(0);
        // All six started on run queue 0 (2 pCPUs); once balanced (load window ~1 s), 6 loops on
        // 8 pCPUs all run nearly all the time.
        assertThat((double) (host.cpuTime(vm) - before) / (6 * 5_000 * MS)).isGreaterThan(0.97);
        int[] perRq = new int[4];
        for (Vcpu v : vm.vcpus) {
            perRq[Credit2Policy.runqueueOfVcpu(v)]++;
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
        Credit2Policy pol = credit2("latest");
        PolicyTestHost host = new PolicyTestHost(1, 1, 1).start(pol);
        Vm a = host.addVm("a", 256, 0, Behaviour.loop(), 0);
        Vm b = host.addVm("b", 256, 0, Behaviour.loop(), 0);
        host.runUntil(100 * US);
        Vcpu running = a.vcpus.get(0).state == VcpuState.RUNNING ? a.vcpus.get(0) : b.vcpus.get(0);
        Vcpu waiting = running == a.vcpus.get(0) ? b.vcpus.get(0) : a.vcpus.get(0);
        // within the rate limit and with more credit, only a yield gives the pCPU away
        host.at(200 * US, () -> host.yieldVcpu(running));
        host.runUntil(200 * US);
        assertThat(waiting.state).isEqualTo(VcpuState.RUNNING);
        assertThat(running.state).isEqualTo(VcpuState.RUNNABLE);
    }

    @Test
    void aBusyPcpuIsNotTickledBeforeItsVcpuRanTheRateLimitLessTolerance() {
        // a runs from ~1 us; b wakes at 0.5 ms: a ran < 1 ms - 50 us, is_preemptable says no though b
        // has more credit; c wakes at 0.96 ms, within the 50 us tolerance: its wake tickles the pCPU.
        List<PolicyRuns.TraceRecord> trace = PolicyRuns.trace("credit2", Map.of(), 1, 1, 1, 0.001,
                List.of(loops("a", 256, 0, 1), startingAt(loops("b", 256, 0, 1), 0.0005),
                        startingAt(loops("c", 256, 0, 1), 0.00096)));
        assertThat(trace).filteredOn(r -> r.event().equals("tickle") && r.timeNanos() == 500_000).isEmpty();
        assertThat(trace).filteredOn(r -> r.event().equals("switch") && "b".equals(r.vm())).isEmpty();
        assertThat(trace).filteredOn(r -> r.event().equals("tickle") && r.timeNanos() == 960_000).hasSize(1);
    }

    private static VmSpec startingAt(VmSpec vm, double seconds) {
        return new VmSpec(vm.name(), vm.vcpus(), vm.weight(), vm.cap(), null, null, null, null, null, null, seconds,
                vm.workload());
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
