package io.schedlab.engine.policies.linux;

import static io.schedlab.engine.policies.linux.LinuxRuns.endlessLoop;
import static io.schedlab.engine.policies.linux.LinuxRuns.host;
import static io.schedlab.engine.policies.linux.LinuxRuns.run;
import static io.schedlab.engine.policies.linux.LinuxRuns.spec;
import static io.schedlab.engine.policies.linux.LinuxRuns.vm;
import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.model.Vcpu;
import io.schedlab.engine.model.Vm;
import io.schedlab.engine.spec.SchedulerSpec;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Without HRTICK (kernel/sched/features.h SCHED_FEAT(HRTICK, false)) the end of a running task's slice is noticed
 * at the next scheduler tick (task_tick_fair), and under EEVDF also at an update_curr on a wake-up's path
 * (update_deadline -> resched_curr), not at its exact time.
 */
class LinuxTickTest {
    private static final double SECONDS = 2;

    private int uids;

    private final StubContext ctx = new StubContext();

    private EevdfPolicy eevdf(Map<String, Object> overrides) {
        EevdfPolicy p = new EevdfPolicy(new LinuxParams(EevdfOrderTest.defaults(overrides), true));
        p.ctx = ctx;
        p.factor = 1;
        p.rqs = new LinuxRq[] {new LinuxRq(0)};
        return p;
    }

    private LinuxTask queued(LinuxRq rq, long vruntime, long deadline) {
        Vm vm = new Vm(uids, "vm" + uids, 256, 0, 1024, 0);
        Vcpu v = new Vcpu(vm, 0, uids++, rq.cpu);
        LinuxTask t = new LinuxTask(v, 1024, rq);
        v.policyData = t;
        t.vruntime = vruntime;
        t.deadline = deadline;
        t.fresh = false;
        rq.add(t);
        return t;
    }

    /** A task running since 0 with a 0.75 ms deadline, another queued beside it. */
    private LinuxTask runningBesideAnother(EevdfPolicy p, LinuxRq rq) {
        LinuxTask curr = queued(rq, 0, 750_000);
        queued(rq, 0, 750_000);
        rq.queued.remove(curr);
        rq.curr = curr;
        p.picked(curr);
        curr.execStart = 0;
        return curr;
    }

    /** A sleeping task whose lag places it behind on waking: not eligible, so pick_eevdf does not choose it. */
    private LinuxTask sleeperPlacedBehind(EevdfPolicy p, LinuxRq rq) {
        LinuxTask waker = new LinuxTask(new Vcpu(new Vm(uids, "w", 256, 0, 1024, 0), 0, uids++, 0), 1024, rq);
        waker.v.policyData = waker;
        waker.fresh = false;
        waker.vlag = -2 * p.slice();
        return waker;
    }

    @Test
    void aSliceEndIsNoticedAtTheNextTickUnlessHrtick() {
        EevdfPolicy tick = eevdf(Map.of("hz", 250));
        ctx.now = 1_000_000;
        // a 0.75 ms slice from 1 ms ends at 1.75 ms; the 250 Hz tick sees it at 4 ms
        assertThat(tick.noticedIn(750_000)).isEqualTo(3_000_000);
        assertThat(tick.noticedIn(3_000_000)).as("an end on a tick").isEqualTo(3_000_000);
        assertThat(eevdf(Map.of("hz", 1000)).noticedIn(750_000)).isEqualTo(1_000_000);
        assertThat(eevdf(Map.of("hz", 250, "hrtick", true)).noticedIn(750_000)).isEqualTo(750_000);
    }

    @Test
    void aWakeUpAfterTheRunningTasksDeadlineReschedulesEvenWhenTheWakerIsNotPicked() {
        EevdfPolicy p = eevdf(Map.of("kernelVersion", "6.6"));
        LinuxRq rq = p.rqs[0];
        LinuxTask curr = runningBesideAnother(p, rq);
        LinuxTask waker = sleeperPlacedBehind(p, rq);

        ctx.now = 1_000_000; // curr ran past its 0.75 ms deadline, before the 4 ms tick
        p.wake(waker.v);
        assertThat(p.pick(rq)).isNotSameAs(waker);
        assertThat(curr.deadline).as("update_deadline gave a new deadline").isGreaterThan(750_000);
        assertThat(ctx.tickled).as("update_curr's resched_curr").containsExactly(0);
    }

    @Test
    void aWakeUpBeforeTheDeadlineLeavesTheRunningTaskAlone() {
        EevdfPolicy p = eevdf(Map.of("kernelVersion", "6.6"));
        LinuxRq rq = p.rqs[0];
        LinuxTask curr = runningBesideAnother(p, rq);
        LinuxTask waker = sleeperPlacedBehind(p, rq);

        ctx.now = 500_000;
        p.wake(waker.v);
        assertThat(curr.deadline).isEqualTo(750_000);
        assertThat(ctx.tickled).isEmpty();
    }

    @Test
    void aProtectedRunningTaskGivesWayToAShorterWakerOnlyWithPreemptShort() {
        for (boolean preemptShort : new boolean[] {true, false}) {
            EevdfPolicy p = eevdf(Map.of("kernelVersion", "6.12", "preemptShort", preemptShort));
            LinuxRq rq = p.rqs[0];
            LinuxTask curr = queued(rq, 0, 750_000);
            queued(rq, 200_000, 950_000);
            rq.queued.remove(curr);
            rq.curr = curr;
            p.picked(curr);
            curr.execStart = 0;
            LinuxTask waker = queued(rq, 0, 300_000);
            waker.customSliceNanos = 300_000;
            ctx.now = 100_000; // curr (vruntime 100 us) is still eligible, inside its slice and protected
            assertThat(p.wakeupPreempts(rq, waker)).as("PREEMPT_SHORT " + preemptShort).isEqualTo(preemptShort);
        }
    }

    /** Two endless loops on one CPU for SECONDS: the run's context switches. */
    private static long switchesOfTwoHogs(String policy, Map<String, Object> params) {
        Map<String, Object> m = new HashMap<>(params);
        return run(spec(host(1, 1, 1), new SchedulerSpec(policy, m), SECONDS,
                List.of(vm("a", 1, null, endlessLoop(1)), vm("b", 1, null, endlessLoop(1))))).totals().contextSwitches();
    }

    @Test
    void eevdfHogsSwitchOncePerTickWhenTheSliceIsShorterThanTheTick() {
        // base slice 0.75 ms (one CPU: scaling factor 1) is shorter than either tick: every tick switches
        for (int hz : new int[] {100, 250}) {
            long switches = switchesOfTwoHogs("eevdf", Map.of("hz", hz));
            assertThat(switches).as("hz " + hz).isBetween((long) (0.9 * SECONDS * hz), (long) (SECONDS * hz) + 2);
        }
        long exact = switchesOfTwoHogs("eevdf", Map.of("hz", 250, "hrtick", true));
        assertThat(exact).as("HRTICK: a switch per 0.75 ms slice").isGreaterThan((long) (0.9 * SECONDS / 0.00075));
    }

    @Test
    void cfsHogsRunWholeTicks() {
        // sched_slice of two equal tasks: 6 ms / 2 = 3 ms, noticed at the next 4 ms tick (check_preempt_tick)
        long tick = switchesOfTwoHogs("cfs", Map.of("hz", 250, "tunableScaling", "none"));
        assertThat(tick).isBetween((long) (0.9 * SECONDS * 250), (long) (SECONDS * 250) + 2);
        long exact = switchesOfTwoHogs("cfs", Map.of("hz", 250, "tunableScaling", "none", "hrtick", true));
        assertThat(exact).as("HRTICK: a switch per 3 ms slice").isGreaterThan((long) (0.9 * SECONDS / 0.003));
    }
}
