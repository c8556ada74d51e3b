package io.schedlab.engine.policies.credit;

import static io.schedlab.engine.policies.PolicyRuns.loops;
import static io.schedlab.engine.policies.PolicyRuns.vm;
import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.Seconds;
import io.schedlab.engine.TestSpecs;
import io.schedlab.engine.model.Vcpu;
import io.schedlab.engine.model.VcpuState;
import io.schedlab.engine.model.Vm;
import io.schedlab.engine.policies.Decision;
import io.schedlab.engine.policies.PolicyRuns;
import io.schedlab.engine.output.ResultDocument;
import io.schedlab.engine.sim.SimulatorProbe;
import io.schedlab.engine.spec.VmSpec;
import io.schedlab.engine.spec.WorkloadSpec;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CreditPolicyTest {
    private static final long MS = 1_000_000L;
    private static final long US = 1_000L;

    @Test
    void weightsTwoToOneOnOnePcpuGiveTwoToOneShares() {
        ResultDocument doc = PolicyRuns.run("credit", Map.of(), 1, 1, 1, 30.0,
                List.of(loops("a", 512, 0, 1), loops("b", 256, 0, 1)));
        double a = Seconds.of(vm(doc, "a").cpuNanosAllVcpus());
        double b = Seconds.of(vm(doc, "b").cpuNanosAllVcpus());
        assertThat(a / b).isBetween(2.0 * 0.98, 2.0 * 1.02);
        assertThat(a + b).as("only the scheduler's overhead is lost").isBetween(29.9, 30.0);
    }

    @Test
    void accountingHandsOutCreditByWeightTimesActiveVcpus() {
        SimulatorProbe sim = PolicyRuns.probe("credit", Map.of(), 1, 1, 1, 1.0,
                List.of(loops("a", 512, 0, 1, 0), loops("b", 256, 0, 1, 0)));
        CreditPolicy pol = sim.policy(CreditPolicy.class);
        Vcpu va = sim.vcpu("a", 0);
        // a runs 0-30 ms, b 30-60 ms; at the 60 ms accounting both are active and a is queued,
        // so a's credit changes by exactly its fair share: 300 credits x 512 / (512 + 256) = 200.
        sim.runUntil(60 * MS - 1);
        assertThat(va.state).isEqualTo(VcpuState.RUNNABLE);
        assertThat(pol.totalActiveWeight()).isEqualTo(768);
        int before = CreditPolicy.creditOf(va);
        sim.runUntil(60 * MS);
        assertThat(CreditPolicy.creditOf(va) - before).isEqualTo(200);
        assertThat(CreditPolicy.priorityOf(va)).isEqualTo(CreditVcpu.PRI_UNDER);
    }

    @Test
    void creditAboveOneSliceLeavesActiveListHalved() {
        // One mostly sleeping vCPU on a 2-pCPU host (12 ms of work every 200 ms): it is paid more than it burns.
        SimulatorProbe sim = PolicyRuns.probe("credit", Map.of(), 2, 1, 1, 3.0,
                List.of(PolicyRuns.bursts("a", 1, 12_000, 200, null, null)));
        CreditPolicy pol = sim.policy(CreditPolicy.class);
        Vcpu va = sim.vcpu("a", 0);
        int maxCredit = Integer.MIN_VALUE;
        boolean ranMoreThanOneSlice = false;
        for (long t = 1; t <= 2000; t++) {
            sim.runUntil(t * MS);
            ranMoreThanOneSlice |= sim.cpuNanos("a") > 30 * MS;
            maxCredit = Math.max(maxCredit, CreditPolicy.creditOf(va));
        }
        assertThat(ranMoreThanOneSlice).as("it ran, so it was paid more than once").isTrue();
        assertThat(maxCredit).as("above one slice of credit it leaves the active list, credit halved")
                .isBetween(1, 300);
        assertThat(pol.totalActiveWeight()).isIn(0L, 256L);
    }

    @Test
    void capOfFiftyPercentHoldsWithinTwoPercent() {
        ResultDocument doc = PolicyRuns.run("credit", Map.of(), 1, 2, 1, 30.0, List.of(loops("a", 256, 50, 1)));
        assertThat(Seconds.of(vm(doc, "a").cpuNanosAllVcpus()) / 30.0).isBetween(0.49, 0.51);
    }

    @Test
    void wakingUnderVcpuIsBoostedPreemptsAndDropsToUnderAtTheNextTick() {
        // io's VM starts (its vCPU wakes) at 45 ms, while hog has run for 45 ms.
        SimulatorProbe sim = PolicyRuns.probe("credit", Map.of(), 1, 1, 1, 1.0,
                List.of(loops("hog", 256, 0, 1, 0), PolicyRuns.startingAt(loops("io", 256, 0, 1, 0), 0.045)));
        Vcpu vhog = sim.vcpu("hog", 0);
        sim.runUntil(45 * MS);
        Vcpu vio = sim.vcpu("io", 0);
        // csched_unit_wake boosts an UNDER waker; __runq_tickle preempts the (UNDER) hog at once (after
        // the IPI), the hog having run far longer than the 1 ms rate limit.
        assertThat(vio.state).isEqualTo(VcpuState.RUNNABLE);
        assertThat(CreditPolicy.priorityOf(vio)).isEqualTo(CreditVcpu.PRI_BOOST);
        sim.runUntil(45 * MS + 100 * US);
        assertThat(vio.state).isEqualTo(VcpuState.RUNNING);
        assertThat(vhog.state).isEqualTo(VcpuState.RUNNABLE);
        sim.runUntil(50 * MS - 1);
        assertThat(CreditPolicy.priorityOf(vio)).isEqualTo(CreditVcpu.PRI_BOOST);
        sim.runUntil(50 * MS);
        // csched_tick -> csched_unit_acct: the tick that finds it running ends the boost
        assertThat(CreditPolicy.priorityOf(vio)).isEqualTo(CreditVcpu.PRI_UNDER);
    }

    @Test
    void rateLimitKeepsCurrentUnlessItYields() {
        SimulatorProbe sim = PolicyRuns.probe("credit", Map.of(), 1, 1, 1, 1.0, List.of(loops("a", 256, 0, 1, 0)));
        CreditPolicy pol = sim.policy(CreditPolicy.class);
        Vcpu va = sim.vcpu("a", 0);
        sim.runUntil(200 * US);
        assertThat(va.state).isEqualTo(VcpuState.RUNNING);
        long ran = sim.cpuNanos("a");
        assertThat(ran).isBetween(190 * US, 200 * US);
        Decision d = pol.doSchedule(sim.pcpu(0), va, false);
        assertThat(d.next()).isSameAs(va);
        // the rest of the 1 ms rate limit, counted from the decision that picked a (before the switch overhead)
        assertThat(d.runNanos()).as("the rest of the rate limit").isBetween(800 * US, 1 * MS - ran);
        // Yielding bypasses the rate limit; with nothing else runnable, a keeps running for a full slice.
        Decision y = pol.doSchedule(sim.pcpu(0), va, true);
        assertThat(y.next()).isSameAs(va);
        assertThat(y.runNanos()).isEqualTo(30 * MS);
    }

    /**
     * V1 (Xen f02a5760c75c, 66c7449a4dae): an I/O vCPU and a CPU hog pinned to pCPU 1 of two, pCPU 0 idle. Up to
     * 4.6 each wake-up of the I/O vCPU kicks the hog away (no idle pCPU suits the waker, though none suits the
     * hog either), the hog's migration wakes it boosted, and the next wake-up of the I/O vCPU cannot preempt a
     * BOOST hog: it waits for the hog's 30 ms slice. From 4.7 the hog is not kicked nor boosted and the I/O vCPU
     * waits at most the 1 ms rate limit.
     */
    @Test
    void beforeXen47AWakeUpKicksAPinnedHogAwayAndItsMigrationBoostsIt() {
        List<VmSpec> vms = List.of(PolicyRuns.bursts("io", 1, 50, 1, List.of(1), null),
                new VmSpec("hog", 1, null, null, List.of(1), null, null, null, null, null, null,
                        new WorkloadSpec("cpu-loop", Map.of("threads", 1, "workSeconds", 0))));
        ResultDocument before = PolicyRuns.run("credit", Map.of("xenVersion", "4.6"), 1, 2, 1, 2.0, vms);
        ResultDocument after = PolicyRuns.run("credit", Map.of("xenVersion", "4.7"), 1, 2, 1, 2.0, vms);
        ResultDocument latest = PolicyRuns.run("credit", Map.of(), 1, 2, 1, 2.0, vms);
        assertThat(vm(before, "io").wakeLatency().p90Nanos()).as("4.6: every other wake-up behind a boosted hog")
                .isGreaterThan(10 * MS);
        assertThat(vm(after, "io").wakeLatency().p99Nanos()).as("4.7: at most the rate limit")
                .isLessThanOrEqualTo(1_100 * US);
        assertThat(vm(latest, "io").wakeLatency().p99Nanos()).isLessThanOrEqualTo(1_100 * US);
        assertThat(vm(before, "io").cpuNanosAllVcpus()).isLessThan(vm(after, "io").cpuNanosAllVcpus() / 5);

        // The mechanism at an instant: in 4.6 the hog is BOOST right after the I/O vCPU's first wake-up kicked it.
        assertThat(hogBoostedBehindIo("4.6")).isTrue();
        assertThat(hogBoostedBehindIo("4.7")).isFalse();
    }

    /**
     * Whether, at some instant (10 us steps) from 40 ms (past the boost of the hog's first wake-up, dropped by
     * the 10 ms tick) to 100 ms, the hog waits behind the running I/O vCPU with BOOST priority.
     */
    private static boolean hogBoostedBehindIo(String version) {
        List<VmSpec> vms = List.of(PolicyRuns.bursts("io", 1, 50, 1, List.of(1), null),
                new VmSpec("hog", 1, null, null, List.of(1), null, null, null, null, null, null,
                        new WorkloadSpec("cpu-loop", Map.of("threads", 1, "workSeconds", 0))));
        SimulatorProbe sim = PolicyRuns.probe("credit", Map.of("xenVersion", version), 1, 2, 1, 0.2, vms);
        Vcpu io = sim.vcpu("io", 0);
        Vcpu hog = sim.vcpu("hog", 0);
        int preemptions = 0;
        boolean boosted = false;
        for (long t = 40 * MS; t < 100 * MS; t += 10 * US) {
            sim.runUntil(t);
            if (io.state == VcpuState.RUNNING && hog.state == VcpuState.RUNNABLE) {
                preemptions++;
                boosted |= CreditPolicy.priorityOf(hog) == CreditVcpu.PRI_BOOST;
            }
        }
        assertThat(preemptions).as("instants with the I/O vCPU running before the hog").isPositive();
        return boosted;
    }

    @Test
    void beforeXen48ARateLimitedVcpuGetsTheWholeLimitAsItsSlice() {
        // 0053127890eb (4.8): the rest of the limit; before it, sched_ratelimit_us whole.
        SimulatorProbe sim = PolicyRuns.probe("credit", Map.of("xenVersion", "4.7"), 1, 1, 1, 1.0,
                List.of(loops("a", 256, 0, 1, 0)));
        CreditPolicy pol = sim.policy(CreditPolicy.class);
        Vcpu va = sim.vcpu("a", 0);
        sim.runUntil(200 * US);
        Decision d = pol.doSchedule(sim.pcpu(0), va, false);
        assertThat(d.next()).isSameAs(va);
        assertThat(d.runNanos()).isEqualTo(1 * MS);
    }

    /**
     * load_balance_ratelimit exists from 4.18 (58feb9e0ac): an idle pCPU that ran csched_load_balance less than
     * 1 ms ago skips it (and, in the model, looks again when the limit expires); 4.6's csched_schedule balances
     * whenever its best local work is IDLE, so the second of two schedules in a row balances again and the pCPU
     * simply idles until tickled.
     */
    @Test
    void beforeXen418AnIdlePcpuBalancesAtEverySchedule() {
        assertThat(secondIdleSchedule("4.6")).as("4.6: balanced again, idle without a timer")
                .isEqualTo(Decision.idle());
        assertThat(secondIdleSchedule("4.17")).isEqualTo(Decision.idle());
        assertThat(secondIdleSchedule("4.18")).as("4.18: skipped, looks again in 1 ms")
                .isEqualTo(new Decision(null, 1 * MS));
        assertThat(secondIdleSchedule("latest")).isEqualTo(new Decision(null, 1 * MS));
    }

    /** Idle pCPU 0 (a loop runs on pCPU 1) schedules twice at 0.5 ms: the second decision. */
    private static Decision secondIdleSchedule(String version) {
        SimulatorProbe sim = PolicyRuns.probe("credit", Map.of("xenVersion", version), 1, 2, 1, 0.01,
                List.of(loops("a", 256, 0, 1, 1)));
        CreditPolicy pol = sim.policy(CreditPolicy.class);
        sim.runUntil(500 * US);
        assertThat(sim.pcpu(0).current).as("pCPU 0 idle").isNull();
        assertThat(pol.doSchedule(sim.pcpu(0), null, false)).isEqualTo(Decision.idle());
        return pol.doSchedule(sim.pcpu(0), null, false);
    }

    /**
     * vcpu_wake calls only csched_vcpu_wake, which queues the vCPU on its processor (schedule.c / sched_credit.c
     * RELEASE-4.6.0): a wake-up does not pick. An I/O vCPU created on pCPU 1, the sibling of a hog pinned to
     * pCPU 0, wakes there every millisecond although core 1 (pCPUs 2, 3) is idle throughout; a pick at each
     * wake-up (_csched_cpu_pick prefers a fully idle core) would run it on core 1.
     */
    @Test
    void aWakeUpStaysOnItsProcessorEvenBesideABusySibling() {
        VmSpec io = new VmSpec("io", 1, null, null, null, null, null, null, null, List.of(1), null,
                new WorkloadSpec("idle", Map.of("threads", 1, "wakeIntervalMs", 1, "burstUs", 20, "jitter", 0.0)));
        VmSpec hog = new VmSpec("hog", 1, null, null, List.of(0), null, null, null, null, List.of(0), null,
                new WorkloadSpec("cpu-loop", Map.of("threads", 1, "workSeconds", 0)));
        ResultDocument doc = PolicyRuns.run("credit", Map.of("xenVersion", "4.6"), 1, 2, 2, 0.2, List.of(io, hog));
        var ioVcpu = vm(doc, "io").vcpus().get(0);
        long onPcpu1 = ioVcpu.ranOn().stream().filter(t -> t.pcpu() == 1).mapToLong(t -> t.nanos()).sum();
        assertThat(ioVcpu.cpuNanos()).as("about 200 bursts of 20 us").isGreaterThan(3 * MS);
        assertThat(onPcpu1).as("its wake-ups keep pCPU 1").isGreaterThan(ioVcpu.cpuNanos() * 9 / 10);
    }

    @Test
    void runQueueIsPriorityOrderedFifoAndYieldGoesBehindOneLower() {
        Vm vm = new Vm(0, "vm", 256, 0, 1, 0);
        CreditDomain dom = new CreditDomain(vm);
        CreditVcpu[] s = new CreditVcpu[5];
        for (int i = 0; i < 5; i++) {
            s[i] = new CreditVcpu(new Vcpu(vm, i, i, 0), dom);
        }
        CreditPcpu pc = new CreditPcpu(0);
        s[0].pri = CreditVcpu.PRI_UNDER;
        s[1].pri = CreditVcpu.PRI_OVER;
        s[2].pri = CreditVcpu.PRI_BOOST;
        s[3].pri = CreditVcpu.PRI_UNDER;
        pc.insert(s[0]);
        pc.insert(s[1]);
        pc.insert(s[2]);
        pc.insert(s[3]);
        assertThat(pc.runq).containsExactly(s[2], s[0], s[3], s[1]);
        s[4].pri = CreditVcpu.PRI_BOOST;
        s[4].yield = true;
        pc.insert(s[4]);
        // behind every BOOST and one lower-priority (UNDER) vCPU
        assertThat(pc.runq).containsExactly(s[2], s[0], s[4], s[3], s[1]);
    }

    @Test
    void runqSortMovesUnderAheadOfOverKeepingOrder() {
        Vm vm = new Vm(0, "vm", 256, 0, 1, 0);
        CreditDomain dom = new CreditDomain(vm);
        CreditPcpu pc = new CreditPcpu(0);
        CreditVcpu[] s = new CreditVcpu[4];
        for (int i = 0; i < 4; i++) {
            s[i] = new CreditVcpu(new Vcpu(vm, i, i, 0), dom);
            s[i].pri = CreditVcpu.PRI_UNDER;
            pc.insert(s[i]);
        }
        s[0].pri = CreditVcpu.PRI_OVER;
        s[2].pri = CreditVcpu.PRI_OVER;
        pc.sortByPriorityClass();
        assertThat(pc.runq).containsExactly(s[1], s[3], s[0], s[2]);
    }

    @Test
    void twoLoopsPlacedOnOnePcpuAreSpreadByPlacementAndStealing() {
        ResultDocument doc = PolicyRuns.run("credit", Map.of(), 1, 2, 1, 10.0,
                List.of(loops("a", 256, 0, 1, 1), loops("b", 256, 0, 1, 1)));
        assertThat(Seconds.of(vm(doc, "a").cpuNanosAllVcpus())).isGreaterThan(9.8);
        assertThat(Seconds.of(vm(doc, "b").cpuNanosAllVcpus())).isGreaterThan(9.8);
    }

    @Test
    void idlePcpuStealsQueuedWorkWhenItsOwnVcpuBlocks() {
        // pCPU 0 runs 5 ms of dom0 work, then dom0 blocks for good; the two loops start at 1 ms on
        // pCPU 1 (pCPU 0 is busy), so one of them only runs if pCPU 0 steals it.
        VmSpec dom0 = new VmSpec("dom0", 1, null, null, null, null, null, null, null, List.of(0), null,
                new WorkloadSpec("cpu-loop", Map.of("workSeconds", 0.005)));
        VmSpec loops = new VmSpec("loops", 2, null, null, null, null, null, null, null, List.of(1, 1), 0.001,
                new WorkloadSpec("cpu-loop", Map.of("threads", 2, "workSeconds", 0)));
        ResultDocument doc = PolicyRuns.run("credit", Map.of(), 1, 2, 1, 1.0, List.of(dom0, loops));
        assertThat(Seconds.of(vm(doc, "loops").cpuNanosAllVcpus())).isGreaterThan(2 * 0.990 - 0.010);
        assertThat(Seconds.of(vm(doc, "dom0").cpuNanosAllVcpus())).isBetween(0.005, 0.0051);
    }

    @Test
    void softAffinityIsPreferredWhenThereIsRoom() {
        double[] out = PolicyRuns.softAffinityScenario("credit");
        assertThat(out[0]).isGreaterThan(0.9);
        assertThat(out[1]).isGreaterThan(0);
    }

    @Test
    void placementPrefersAFullyIdleCoreOverAnIdleSibling() {
        CreditCpuPicker picker = new CreditCpuPicker(TestSpecs.topology(1, 2, 2));
        CreditPcpu[] pcs = fourPcpus();
        Vcpu v = vcpuOnPcpu0AllowedOnFour();
        BitSet idlers = new BitSet();
        idlers.set(1, 4); // pCPU 0 busy, its sibling 1 idle, core 1 (pCPUs 2,3) fully idle
        int cpu = picker.pick(v, idlers, false, pcs, true);
        assertThat(cpu).isIn(2, 3);
        // The current pCPU wins when it would be idle without v (is_runq_idle) and its core is idle.
        idlers.clear();
        idlers.set(1);
        assertThat(picker.pick(v, idlers, true, pcs, false)).isEqualTo(0);
    }

    @Test
    void crossSocketMoveNeedsTwiceTheIdleness() {
        CreditCpuPicker picker = new CreditCpuPicker(TestSpecs.topology(2, 2, 1));
        CreditPcpu[] pcs = fourPcpus();
        Vcpu v = vcpuOnPcpu0AllowedOnFour();
        BitSet idlers = new BitSet();
        idlers.set(1);
        idlers.set(2);
        // socket 0 has 1 idle (pCPU 1), socket 1 has 1 idle (pCPU 2): not twice as idle, stay on socket 0
        assertThat(picker.pick(v, idlers, false, pcs, false)).isEqualTo(1);
        idlers.set(3);
        // socket 1 now has 2 idle vs 1: still not more than twice (1*2 < 2 is false)
        assertThat(picker.pick(v, idlers, false, pcs, false)).isEqualTo(1);
        idlers.clear(1);
        idlers.set(0);
        assertThat(picker.pick(v, idlers, true, pcs, false)).isEqualTo(0);
    }

    private static CreditPcpu[] fourPcpus() {
        CreditPcpu[] pcs = new CreditPcpu[4];
        for (int i = 0; i < 4; i++) {
            pcs[i] = new CreditPcpu(i);
        }
        return pcs;
    }

    private static Vcpu vcpuOnPcpu0AllowedOnFour() {
        Vcpu v = new Vcpu(new Vm(0, "vm", 256, 0, 1, 0), 0, 0, 0);
        v.hardAffinity.set(0, 4);
        return v;
    }
}
