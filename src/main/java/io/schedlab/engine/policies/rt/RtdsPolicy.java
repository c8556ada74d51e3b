package io.schedlab.engine.policies.rt;

import io.schedlab.engine.model.Pcpu;
import io.schedlab.engine.model.Topology;
import io.schedlab.engine.model.Vcpu;
import io.schedlab.engine.model.VcpuState;
import io.schedlab.engine.policies.Decision;
import io.schedlab.engine.policies.LockWork;
import io.schedlab.engine.policies.SchedulerContext;
import io.schedlab.engine.policies.SelfCheckAssumptions;
import io.schedlab.engine.policies.SingleRunqueue;
import io.schedlab.engine.policies.xen.AffinityBalance;
import io.schedlab.engine.policies.xen.XenInsert;
import io.schedlab.engine.params.Params;
import io.schedlab.engine.registry.PolicyDescriptor;
import io.schedlab.engine.registry.StatisticSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code rtds}: Xen's real-time deferrable-server scheduler (xen/common/sched/rt.c, RELEASE-4.14.0; the
 * 4.5/4.6 behaviour from xen/common/sched_rt.c RELEASE-4.5.0). Global preemptive EDF: one run queue sorted
 * by (priority level, deadline) and one unsorted depleted queue, both behind the one scheduler lock. Each vCPU
 * is a deferrable server with a period and a budget (per vCPU, {@link RtdsParams#vcpuSpecs()}): the budget
 * burns while it runs, is kept while it idles and is discarded at the period's end, when it is replenished
 * and the deadline moves one period on (rt_update_deadline). From 4.7 replenishment is event driven (one
 * timer on the replenishment queue, repl_timer_handler); before, every rt_schedule replenishes
 * (__repl_update) and runs at least every {@code tickUs}. From 4.10 a vCPU with extratime that used up its
 * budget continues at priority level + 1 with a fresh budget. Wake-ups and re-queues tickle (runq_tickle) an
 * idle pCPU (its own pCPU first), else the pCPU running the lowest-priority vCPU if that is lower than it.
 */
public final class RtdsPolicy implements SingleRunqueue, LockWork, SelfCheckAssumptions {
    // SingleRunqueue: prv->lock, one lock for the run, depleted and replenishment queues
    public static final String NAME = "rtds";
    static final String STAT_MISSES = "deadlineMisses";
    static final String STAT_OVERRUNS = "budgetOverruns";
    static final String STAT_OVERRUN_NANOS = "budgetOverrunNanos";
    static final String STAT_REPLENISHMENTS = "replenishments";
    static final String STAT_MAX_MISSED = "maxMissedBudgetNanos";
    /** UPDATE_LIMIT_SHIFT (rt.c): beyond 2^10 missed periods the deadline is advanced by a division. */
    private static final int UPDATE_LIMIT_SHIFT = 10;

    private final RtdsParams params;
    private SchedulerContext ctx;
    private Topology topo;
    private int n;
    private final EdfQueue<RtdsVcpu> runq = new EdfQueue<>(RtdsVcpu::comparePriority, s -> s.queueLabel,
            (s, l) -> s.queueLabel = l);
    private final EdfQueue<RtdsVcpu> depletedq = new EdfQueue<>(RtdsVcpu::comparePriority, s -> s.queueLabel,
            (s, l) -> s.queueLabel = l);
    /** Sorted as the run queue (deadline_replq_insert uses compare_unit_priority too). */
    private final EdfQueue<RtdsVcpu> replq = new EdfQueue<>(RtdsVcpu::comparePriority, s -> s.replqLabel,
            (s, l) -> s.replqLabel = l);
    /** prv->tickled, the idle pCPUs and the running vCPUs by priority (runq_tickle's choices). */
    private TickleTargets targets;
    /** The topology's pCPUs by id (runq_tickle reads one per pCPU it looks at). */
    private Pcpu[] hostCpus;
    /** repl_timer_handler's tmp_replq, reused. */
    private final List<RtdsVcpu> replenished = new ArrayList<>();
    private SchedulerContext.TimerHandle replTimer;
    private long replTimerAt = Long.MAX_VALUE;
    private int withoutExtratime;
    private long replenishments;
    private long maxMissedBudget;
    /** Every vCPU ever added, for the run totals (a removed one keeps its counters). */
    private final List<RtdsVcpu> all = new ArrayList<>();

    public RtdsPolicy(RtdsParams params) {
        this.params = params;
    }

    /** Registry entry. */
    public static PolicyDescriptor descriptor() {
        return new PolicyDescriptor(NAME,
                "Xen RTDS: global preemptive EDF over deferrable servers (period, budget, extratime per vCPU), "
                        + "one run queue behind one lock; Xen-version aware",
                RtdsParams.specs(), p -> new RtdsPolicy(RtdsParams.from(p)))
                .withSchedParams(RtdsParams.vcpuSpecs(), RtdsParams.vcpuSpecs(), RtdsParams::check)
                .withStatistics(List.of(
                        StatisticSpec.runAndVcpu(STAT_MISSES, "count",
                                "periods that ended while the vCPU was runnable with budget left (level 0)"),
                        StatisticSpec.runAndVcpu(STAT_OVERRUNS, "count",
                                "times the vCPU ran past the end of its budget before rt_schedule stopped it"),
                        StatisticSpec.runAndVcpu(STAT_OVERRUN_NANOS, "ns", "time run past the end of the budget"),
                        StatisticSpec.run(STAT_REPLENISHMENTS, "count", "budget replenishments (rt_update_deadline)"),
                        StatisticSpec.run(STAT_MAX_MISSED, "ns", "largest budget left at a missed deadline")))
                .with(XenInsert.picksFrom48("rt_unit_insert -> rt_res_pick (xen/common/sched/rt.c)"));
    }

    @Override
    public void init(SchedulerContext ctx) {
        this.ctx = ctx;
        this.topo = ctx.topology();
        this.n = topo.size();
        this.hostCpus = topo.pcpus().toArray(new Pcpu[0]);
        this.targets = new TickleTargets(hostCpus);
    }

    private static RtdsVcpu svc(Vcpu v) {
        return (RtdsVcpu) v.policyData;
    }

    // ---------------------------------------------------------------- parameters

    /** Reads period, budget and extratime (xl sched-rtds; extratime only exists from 4.10). */
    private void loadParams(RtdsVcpu svc) {
        Params p = ctx.schedParams(svc.vcpu);
        boolean hadExtratime = svc.extratime;
        svc.period = p.getLong(RtdsParams.PERIOD) * 1_000L;
        svc.budget = p.getLong(RtdsParams.BUDGET) * 1_000L;
        svc.extratime = params.extratime() && p.getBoolean(RtdsParams.EXTRATIME);
        if (hadExtratime != svc.extratime) {
            withoutExtratime += svc.extratime ? -1 : 1;
        }
    }

    /** rt_dom_cntl putvcpuinfo: new period/budget/extratime, effective from the next replenishment. */
    @Override
    public void schedParamsChanged(Vcpu v) {
        loadParams(svc(v));
    }

    // ---------------------------------------------------------------- insert, remove, pick

    @Override
    public void addVcpu(Vcpu v) {
        RtdsVcpu svc = new RtdsVcpu(v);
        svc.extratime = true;
        v.policyData = svc;
        all.add(svc);
        targets.refreshAllowsAll(svc);
        loadParams(svc);
        updateDeadline(ctx.now(), svc); // rt_unit_insert: cur_deadline 0 has passed
    }

    @Override
    public void affinityChanged(Vcpu v) {
        RtdsVcpu svc = svc(v);
        if (svc != null) {
            targets.refreshAllowsAll(svc);
        }
    }

    @Override
    public void removeVcpu(Vcpu v) {
        RtdsVcpu svc = svc(v);
        qRemove(svc);
        replqRemove(svc);
        if (!svc.extratime) {
            withoutExtratime--;
        }
        svc.extratime = true; // no longer counted
    }

    /** rt_res_pick: its pCPU when allowed, else the next allowed one. */
    @Override
    public int pickCpu(Vcpu v) {
        return v.allowedOn(v.processor) ? v.processor : AffinityBalance.cycle(v.processor, v.hardAffinity, n);
    }

    // ---------------------------------------------------------------- wake, sleep, context_saved

    /** rt_unit_wake. */
    @Override
    public void wake(Vcpu v) {
        RtdsVcpu svc = svc(v);
        if (svc.onQueue()) {
            return;
        }
        long now = ctx.now();
        boolean missed = now >= svc.curDeadline;
        if (missed) {
            updateDeadline(now, svc); // it was blocked: a late wake-up is no deadline miss
        }
        if (svc.scheduled) {
            svc.delayedRunqAdd = true;
            if (missed && params.eventDriven()) {
                replqReinsert(svc);
            }
            return;
        }
        if (params.eventDriven()) {
            replqInsert(svc);
        }
        runqInsert(svc);
        if (!params.eventDriven()) {
            replUpdate(now);
        }
        // 4.5: tickle for the highest-priority queued vCPU over all pCPUs; 4.7+: for the woken one.
        runqTickle(params.eventDriven() ? svc : runq.head());
    }

    /** rt_unit_sleep: a running vCPU is descheduled by the simulator; a queued one leaves its queues. */
    @Override
    public void sleep(Vcpu v) {
        RtdsVcpu svc = svc(v);
        if (topo.pcpu(v.processor).current == v) {
            return;
        }
        if (svc.onQueue()) {
            qRemove(svc);
            replqRemove(svc);
        } else {
            svc.delayedRunqAdd = false;
        }
    }

    /** rt_context_saved: re-queue a vCPU switched away while runnable, else drop its replenishment. */
    @Override
    public void contextSaved(Vcpu prev) {
        RtdsVcpu svc = svc(prev);
        svc.scheduled = false;
        if (svc.delayedRunqAdd && prev.isRunnable()) {
            svc.delayedRunqAdd = false;
            runqInsert(svc);
            if (!params.eventDriven()) {
                replUpdate(ctx.now());
            }
            runqTickle(params.eventDriven() ? svc : runq.head());
        } else {
            svc.delayedRunqAdd = false;
            replqRemove(svc);
        }
    }

    // ---------------------------------------------------------------- rt_schedule

    @Override
    public Decision doSchedule(Pcpu p, Vcpu prev, boolean prevYielded) {
        long now = ctx.now();
        int cpu = p.id;
        targets.setTickled(cpu, false);
        RtdsVcpu scurr = prev == null ? null : svc(prev);
        if (scurr != null) {
            burnBudget(scurr, now);
        }
        if (!params.eventDriven()) {
            replUpdate(now);
        }
        RtdsVcpu snext = runq.first(RtdsPolicy::allowedOn, cpu); // runq_pick
        boolean currRunnable = prev != null && prev.state == VcpuState.RUNNING;
        if (currRunnable && scurr.curBudget > 0 && (snext == null || keepCurrent(scurr, snext))) {
            snext = scurr;
        }
        if (currRunnable && snext != scurr) {
            scurr.delayedRunqAdd = true;
        }
        targets.setRunning(cpu, snext);
        if (snext == null) {
            return params.eventDriven() ? Decision.idle() : new Decision(null, params.tickNanos());
        }
        snext.lastStart = now;
        if (snext != scurr) {
            qRemove(snext);
            snext.scheduled = true;
        }
        long run = params.eventDriven() ? snext.curBudget : Math.min(snext.curBudget, params.tickNanos());
        return new Decision(snext.vcpu, run);
    }

    private static boolean allowedOn(RtdsVcpu s, int cpu) {
        return s.vcpu.allowedOn(cpu);
    }

    /** The running vCPU stays: 4.10+ only if strictly higher priority; before, if its deadline is not later. */
    private boolean keepCurrent(RtdsVcpu scurr, RtdsVcpu snext) {
        return params.extratime() ? scurr.comparePriority(snext) > 0 : scurr.curDeadline <= snext.curDeadline;
    }

    /** burn_budget: charge the time since last_start; out of budget -> next level (extratime) or depleted. */
    private void burnBudget(RtdsVcpu svc, long now) {
        long delta = now - svc.lastStart;
        if (delta < 0) {
            svc.lastStart = now;
            return;
        }
        svc.curBudget -= delta;
        svc.lastStart = now;
        if (svc.curBudget < 0) {
            svc.budgetOverruns++;
            svc.budgetOverrunNanos -= svc.curBudget;
        }
        if (svc.curBudget <= 0) {
            if (svc.extratime) {
                svc.level++;
                svc.curBudget = svc.budget;
            } else {
                svc.curBudget = 0;
                svc.depleted = true;
            }
        }
    }

    // ---------------------------------------------------------------- replenishment

    /** rt_update_deadline: the next deadline after now, a full budget, priority level 0. */
    private void updateDeadline(long now, RtdsVcpu svc) {
        if (svc.curDeadline + (svc.period << UPDATE_LIMIT_SHIFT) > now) {
            do {
                svc.curDeadline += svc.period;
            } while (svc.curDeadline <= now);
        } else {
            long count = (now - svc.curDeadline) / svc.period + 1;
            svc.curDeadline += count * svc.period;
        }
        svc.lastStart = now;
        svc.curBudget = svc.budget;
        svc.level = 0;
        replenishments++;
        targets.priorityChanged(svc);
    }

    /** A runnable vCPU reaches its deadline with budget left at level 0: a deadline miss (statistics only). */
    private void checkMiss(RtdsVcpu svc, long now) {
        boolean running = svc.scheduled && topo.pcpu(svc.vcpu.processor).current == svc.vcpu;
        long left = svc.curBudget - (running ? now - svc.lastStart : 0);
        if (svc.level == 0 && left > 0) {
            svc.deadlineMisses++;
            maxMissedBudget = Math.max(maxMissedBudget, left);
        }
    }

    /** repl_timer_handler (4.7+): replenish every due vCPU, re-sort, tickle, re-arm at the next deadline. */
    private void replTimerHandler() {
        replTimer = null;
        replTimerAt = Long.MAX_VALUE;
        long now = ctx.now();
        List<RtdsVcpu> updated = replenished;
        updated.clear();
        while (!replq.isEmpty() && now >= replq.head().curDeadline) {
            RtdsVcpu svc = replq.head();
            replq.remove(svc);
            svc.onReplq = false;
            checkMiss(svc, now);
            updateDeadline(now, svc);
            updated.add(svc); // list_add onto tmp_replq: walked newest first (below, from the end)
            if (svc.onQueue()) {
                qRemove(svc);
                runqInsert(svc);
            }
        }
        for (int i = updated.size() - 1; i >= 0; i--) {
            RtdsVcpu svc = updated.get(i);
            if (hostCpus[svc.vcpu.processor].current == svc.vcpu && !runq.isEmpty()) {
                RtdsVcpu head = runq.head();
                if (svc.comparePriority(head) < 0) {
                    runqTickle(head);
                }
            } else {
                boolean wasDepleted = svc.depleted;
                svc.depleted = false;
                if (wasDepleted && svc.onQueue()) {
                    runqTickle(svc);
                }
            }
            replq.insert(svc);
            svc.onReplq = true;
        }
        if (!replq.isEmpty()) {
            armReplTimer(replq.head().curDeadline);
        }
    }

    /** __repl_update (before 4.7): replenish the due vCPUs of the run queue and move due depleted ones back. */
    private void replUpdate(long now) {
        List<RtdsVcpu> due = new ArrayList<>();
        for (int i = 0; i < runq.size() && now >= runq.get(i).curDeadline; i++) {
            due.add(runq.get(i));
        }
        runq.addWork(due.size() + 1L);
        for (int i = 0; i < depletedq.size(); i++) {
            if (now >= depletedq.get(i).curDeadline) {
                due.add(depletedq.get(i));
            }
        }
        depletedq.addWork(depletedq.size());
        for (RtdsVcpu svc : due) {
            checkMiss(svc, now);
            updateDeadline(now, svc);
            qRemove(svc);
            runqInsert(svc);
        }
    }

    private void armReplTimer(long at) {
        if (replTimer != null && replTimerAt == at) {
            return;
        }
        if (replTimer != null) {
            replTimer.cancel();
        }
        replTimerAt = at;
        replTimer = ctx.setTimer(at, this::replTimerHandler);
    }

    private void stopReplTimer() {
        if (replTimer != null) {
            replTimer.cancel();
            replTimer = null;
            replTimerAt = Long.MAX_VALUE;
        }
    }

    // ---------------------------------------------------------------- queues

    /** runq_insert: with budget (or extratime) into the sorted run queue, else onto the depleted queue. */
    private void runqInsert(RtdsVcpu svc) {
        if (svc.curBudget > 0 || svc.extratime) {
            runq.insert(svc);
            svc.onRunq = true;
        } else {
            depletedq.add(svc);
            svc.onDepletedq = true;
        }
    }

    private void qRemove(RtdsVcpu svc) {
        if (svc.onRunq) {
            runq.remove(svc);
            svc.onRunq = false;
        } else if (svc.onDepletedq) {
            depletedq.remove(svc);
            svc.onDepletedq = false;
        }
    }

    /** replq_insert: re-arm the timer when svc goes to the front. */
    private void replqInsert(RtdsVcpu svc) {
        svc.onReplq = true;
        if (replq.insert(svc)) {
            armReplTimer(svc.curDeadline);
        }
    }

    /** replq_remove: re-arm (or stop) the timer when the front entry leaves. */
    private void replqRemove(RtdsVcpu svc) {
        if (!svc.onReplq) {
            return;
        }
        svc.onReplq = false;
        if (replq.remove(svc)) {
            if (replq.isEmpty()) {
                stopReplTimer();
            } else {
                armReplTimer(replq.head().curDeadline);
            }
        }
    }

    /** replq_reinsert: its deadline changed; re-arm when the front changes. */
    private void replqReinsert(RtdsVcpu svc) {
        boolean wasFront = replq.remove(svc);
        boolean isFront = replq.insert(svc);
        if (wasFront || isFront) {
            armReplTimer(replq.head().curDeadline);
        }
    }

    // ---------------------------------------------------------------- runq_tickle

    /**
     * runq_tickle: among the allowed, not yet tickled pCPUs (its own first, then cycling upwards) an idle one;
     * else the one running the lowest-priority vCPU, if lower than {@code snew}. Each pCPU the walk looks at
     * counts as lock work; a vCPU allowed everywhere gets the walk's answer from {@link TickleTargets#target}.
     */
    private void runqTickle(RtdsVcpu snew) {
        if (snew == null) {
            return;
        }
        int cpu;
        if (targets.allowsAll(snew)) {
            cpu = targets.target(snew);
            assert sameAsWalk(snew, cpu) : "runq_tickle: the idle mask or the running order is out of date";
        } else {
            cpu = targets.walk(snew, hostCpus);
        }
        runq.addWork(targets.walked());
        if (cpu >= 0) {
            targets.setTickled(cpu, true);
            ctx.tickle(cpu);
        }
    }

    /** The walk gives the same pCPU and count (run under -ea, as the tests run). */
    private boolean sameAsWalk(RtdsVcpu snew, int cpu) {
        long walked = targets.walked();
        return targets.walk(snew, hostCpus) == cpu && targets.walked() == walked;
    }

    // ---------------------------------------------------------------- introspection

    @Override
    public long takeLockWork() {
        return runq.takeWork() + depletedq.takeWork() + replq.takeWork();
    }

    /** With extratime (4.10+, on for every vCPU) no pCPU idles while a vCPU waits; budgets alone idle pCPUs. */
    @Override
    public boolean workConserving() {
        return params.extratime() && withoutExtratime == 0;
    }

    @Override
    public Map<String, Long> statistics() {
        long misses = 0;
        long overruns = 0;
        long overrunNanos = 0;
        for (RtdsVcpu s : all) {
            misses += s.deadlineMisses;
            overruns += s.budgetOverruns;
            overrunNanos += s.budgetOverrunNanos;
        }
        return Map.of(STAT_MISSES, misses, STAT_OVERRUNS, overruns, STAT_OVERRUN_NANOS, overrunNanos,
                STAT_REPLENISHMENTS, replenishments, STAT_MAX_MISSED, maxMissedBudget);
    }

    @Override
    public Map<String, Long> statistics(Vcpu v) {
        RtdsVcpu s = svc(v);
        return Map.of(STAT_MISSES, s.deadlineMisses, STAT_OVERRUNS, s.budgetOverruns, STAT_OVERRUN_NANOS,
                s.budgetOverrunNanos);
    }
}
