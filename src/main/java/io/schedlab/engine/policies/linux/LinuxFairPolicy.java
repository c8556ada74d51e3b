package io.schedlab.engine.policies.linux;

import io.schedlab.engine.model.Pcpu;
import io.schedlab.engine.model.Topology;
import io.schedlab.engine.model.Vcpu;
import io.schedlab.engine.model.Vm;
import io.schedlab.engine.policies.Decision;
import io.schedlab.engine.policies.SchedulerContext;
import io.schedlab.engine.policies.DirectedYield;
import io.schedlab.engine.policies.SchedulerPolicy;
import io.schedlab.engine.policies.SelfCheckAssumptions;
import io.schedlab.engine.policies.YieldToResult;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The Linux fair class as the host scheduler of KVM: one run queue per CPU, each vCPU (and host thread)
 * a task. What CFS and EEVDF share lives here (kernel/sched/fair.c): run-queue bookkeeping,
 * update_curr, wake placement (select_task_rq_fair / select_idle_sibling), the schedule path
 * (pick_next_task_fair), sleep, directed yield (kernel/sched/core.c yield_to, yield_to_task_fair) and
 * load balancing ({@link LinuxBalancer}). The two classes differ in placement, picking, wake-up
 * preemption and the slice.
 */
abstract class LinuxFairPolicy implements SchedulerPolicy, DirectedYield, SelfCheckAssumptions {
    final LinuxParams params;
    SchedulerContext ctx;
    LinuxRq[] rqs;
    /** Per CPU: the CPUs of its LLC (sd_llc's span: the socket's), ascending, and its SMT siblings (cpu_smt_mask). */
    private int[][] llcCpus;
    private int[][] smtSiblings;
    LinuxBalancer balancer;
    /** sysctl_sched_tunable_scaling factor for this host's CPU count. */
    long factor;
    /** Switch-ins of every task in the run (the sum of {@link LinuxTask#switchesIn}, removed tasks included). */
    long switchesIn;
    /** Sleeps that DELAY_DEQUEUE kept on their queue (EEVDF 6.12+). */
    long delayedDequeues;

    LinuxFairPolicy(LinuxParams params) {
        this.params = params;
    }

    // ------------------------------------------------------------------ class-specific parts

    /** place_entity: vruntime (and deadline) of a task being enqueued on rq ({@code initial}: its first time). */
    abstract void place(LinuxRq rq, LinuxTask t, boolean initial);

    /** The task rq runs next among rq.curr (when still on the queue) and the queued ones, or null. */
    abstract LinuxTask pick(LinuxRq rq);

    /** check_preempt_wakeup: should the woken t preempt rq's running task? */
    abstract boolean wakeupPreempts(LinuxRq rq, LinuxTask t);

    /** How long t may run before its slice ends (what the tick's check compares, before tick granularity). */
    abstract long runNanos(LinuxRq rq, LinuxTask t);

    /** yield_task_fair for the running t. */
    abstract void yieldTask(LinuxRq rq, LinuxTask t);

    /**
     * After update_curr advanced the running t's vruntime (EEVDF: update_deadline); true when update_curr itself
     * would resched_curr (EEVDF: a new deadline, or from 6.12 did_preempt_short). CFS's update_curr never does.
     */
    boolean afterAdvance(LinuxRq rq, LinuxTask t) {
        return false;
    }

    /** A task leaves rq (sleep or migration), still counted in it (EEVDF: update_entity_lag). */
    void beforeDequeue(LinuxRq rq, LinuxTask t) {
    }

    /** t moves from src to dst while queued or waking (CFS renormalises vruntime; EEVDF keeps the lag). */
    abstract void renormalize(LinuxTask t, LinuxRq src, LinuxRq dst);

    /**
     * dequeue_entity(DEQUEUE_SLEEP): true when the sleeping t stays queued instead (EEVDF DELAY_DEQUEUE, 6.12+);
     * CFS never delays.
     */
    boolean delaysDequeue(LinuxRq rq, LinuxTask t) {
        return false;
    }

    /** A delayed t wakes on its queue (requeue_delayed_entity); only EEVDF delays. */
    void requeueDelayed(LinuxRq rq, LinuxTask t) {
        t.delayed = false;
    }

    /** t was picked to run (set_next_entity). */
    void picked(LinuxTask t) {
        t.prevSumExec = t.sumExec;
    }

    // ------------------------------------------------------------------ SchedulerPolicy

    @Override
    public void init(SchedulerContext ctx) {
        this.ctx = ctx;
        Topology topo = ctx.topology();
        rqs = new LinuxRq[topo.size()];
        for (int p = 0; p < rqs.length; p++) {
            rqs[p] = new LinuxRq(p);
        }
        llcCpus = spans(topo, true);
        smtSiblings = spans(topo, false);
        factor = LinuxParams.factor(params.tunableScaling, topo.size());
        balancer = new LinuxBalancer(this, topo);
        balancer.start();
    }

    /** Per CPU, ascending: the CPUs of its socket (itself included), or its core's other threads. */
    private static int[][] spans(Topology topo, boolean socket) {
        Map<Integer, List<Integer>> byKey = new HashMap<>();
        for (Pcpu q : topo.pcpus()) {
            byKey.computeIfAbsent(socket ? q.socket : q.core, k -> new ArrayList<>()).add(q.id);
        }
        int[][] out = new int[topo.size()][];
        for (Pcpu q : topo.pcpus()) {
            out[q.id] = byKey.get(socket ? q.socket : q.core).stream().mapToInt(Integer::intValue)
                    .filter(c -> socket || c != q.id).sorted().toArray();
        }
        return out;
    }

    @Override
    public void addVcpu(Vcpu v) {
        v.policyData = new LinuxTask(v, NiceWeights.of(v.vm), rqs[v.processor]);
    }

    @Override
    public void removeVcpu(Vcpu v) {
        LinuxTask t = task(v);
        if (t != null && t.delayed) {
            finishDelayedDequeue(t.rq, t);
        }
        v.policyData = null;
    }

    static LinuxTask task(Vcpu v) {
        return (LinuxTask) v.policyData;
    }

    /** update_curr: account the running task's time since exec_start. */
    void updateCurr(LinuxRq rq) {
        LinuxTask c = rq.curr;
        if (c == null) {
            return;
        }
        long now = ctx.now();
        long delta = now - c.execStart;
        if (delta <= 0) {
            return;
        }
        c.execStart = now;
        c.sumExec += delta;
        if (c.onRq) {
            c.vruntime += c.toVirtual(delta);
            // 6.6 update_deadline / 6.12 update_curr: resched_curr only when another task is queued
            if (afterAdvance(rq, c) && rq.nr > 1) {
                rq.reschedPending = true;
            }
        }
        rq.updateMinVruntime();
    }

    /**
     * When the end of a slice that ends {@code runNanos} from now is noticed, as a delay from now. Without HRTICK
     * (kernel/sched/features.h SCHED_FEAT(HRTICK, false)) only the scheduler tick looks: scheduler_tick ->
     * task_tick_fair -> entity_tick -> update_curr (EEVDF: update_deadline -> resched_curr; CFS up to 6.5:
     * check_preempt_tick), every TICK_NSEC = 1 s / CONFIG_HZ on the jiffies grid that every CPU shares
     * (kernel/time/tick-sched.c tick_setup_sched_timer aligns to the last jiffies update; sched_skew_tick is off
     * by default). So the first tick at or after the end, or the exact end with HRTICK (hrtick_start_fair).
     */
    long noticedIn(long runNanos) {
        if (params.hrtick) {
            return runNanos;
        }
        long now = ctx.now();
        long end = now + Math.max(0, runNanos);
        long tick = params.tickNanos;
        return Math.floorDiv(end + tick - 1, tick) * tick - now;
    }

    /** select_task_rq_fair for a waking task: its previous CPU when idle, else an idle core or CPU of its LLC. */
    @Override
    public int pickCpu(Vcpu v) {
        LinuxTask delayed = task(v);
        if (delayed != null && delayed.delayed) {
            if (v.allowedOn(delayed.rq.cpu)) {
                return delayed.rq.cpu; // ttwu_runnable: still queued, it wakes where it is (no select_task_rq)
            }
            finishDelayedDequeue(delayed.rq, delayed); // its CPU is no longer allowed: leave, then place anew
        }
        int prev = v.processor;
        if (!v.allowedOn(prev)) {
            return leastLoadedAllowed(v);
        }
        if (rqs[prev].nr == 0) {
            return prev;
        }
        // The LLC's CPUs after prev, wrapping (for_each_cpu_wrap over sched_domain_span(sd_llc)).
        int[] llc = llcCpus[prev];
        int k = llc.length;
        int after = Arrays.binarySearch(llc, prev) + 1;
        // select_idle_core: a core whose every sibling is idle.
        for (int j = 0; j < k - 1; j++) {
            int c = llc[(after + j) % k];
            if (v.allowedOn(c) && rqs[c].nr == 0 && coreIdle(c)) {
                return c;
            }
        }
        // select_idle_cpu: any idle CPU of the LLC.
        for (int j = 0; j < k - 1; j++) {
            int c = llc[(after + j) % k];
            if (v.allowedOn(c) && rqs[c].nr == 0) {
                return c;
            }
        }
        return prev;
    }

    private boolean coreIdle(int cpu) {
        for (int s : smtSiblings[cpu]) {
            if (rqs[s].nr != 0) {
                return false;
            }
        }
        return true;
    }

    /** select_fallback_rq when the previous CPU is not allowed: the allowed CPU with the fewest tasks. */
    private int leastLoadedAllowed(Vcpu v) {
        int best = -1;
        for (int c = v.hardAffinity.nextSetBit(0); c >= 0 && c < rqs.length; c = v.hardAffinity.nextSetBit(c + 1)) {
            if (best < 0 || rqs[c].nr < rqs[best].nr) {
                best = c;
            }
        }
        return best;
    }

    /** enqueue_task_fair on the CPU pickCpu chose, then check_preempt_wakeup (idle CPU: just tickle). */
    @Override
    public void wake(Vcpu v) {
        LinuxTask t = task(v);
        LinuxRq rq = rqs[v.processor];
        updateCurr(rq);
        if (t.delayed) {
            // ttwu_runnable: enqueue_task(ENQUEUE_DELAYED), then wakeup_preempt unless it is still on the CPU
            t.updateAvg(ctx.now());
            requeueDelayed(rq, t);
            if (rq.curr == null || rq.curr == t || wakeupPreempts(rq, t) || rq.reschedPending) {
                ctx.tickle(rq.cpu);
            }
            return;
        }
        if (!t.fresh && t.rq != rq) {
            renormalize(t, t.rq, rq);
        }
        place(rq, t, t.fresh);
        t.fresh = false;
        t.updateAvg(ctx.now());
        rq.add(t);
        // a slice end that update_curr noticed on this wake-up's path (enqueue_entity, check_preempt_wakeup_fair)
        // reschedules as well, whichever task pick_eevdf then prefers
        if (rq.curr == null || wakeupPreempts(rq, t) || rq.reschedPending) {
            ctx.tickle(rq.cpu);
        }
    }

    /** dequeue_task_fair(DEQUEUE_SLEEP): a running task stays rq.curr until the schedule that follows. */
    @Override
    public void sleep(Vcpu v) {
        LinuxTask t = task(v);
        if (t == null || !t.onRq) {
            return;
        }
        LinuxRq rq = t.rq;
        t.updateAvg(ctx.now());
        if (rq.curr == t) {
            updateCurr(rq);
        }
        if (delaysDequeue(rq, t)) {
            t.delayed = true;
            delayedDequeues++;
            return;
        }
        if (rq.curr == t) {
            beforeDequeue(rq, t);
            t.onRq = false;
            rq.nr--;
            rq.load -= t.weight;
            rq.clearBuddies(t);
        } else {
            beforeDequeue(rq, t);
            rq.remove(t);
        }
        rq.updateMinVruntime();
    }

    /** pick_next_task_fair (put_prev_entity + set_next_entity); an idle CPU first tries newidle balancing. */
    @Override
    public Decision doSchedule(Pcpu p, Vcpu prev, boolean prevYielded) {
        LinuxRq rq = rqs[p.id];
        updateCurr(rq);
        if (rq.curr != null && !rq.curr.onRq) {
            rq.curr = null; // it slept: already off the queue
        } else if (rq.curr != null && rq.curr.delayed) {
            rq.queued.add(rq.curr); // put_prev_entity: a delayed sleeper stays in the tree
            rq.curr = null;
        }
        rq.reschedPending = false; // __schedule clears TIF_NEED_RESCHED
        LinuxTask next = pickRunnable(rq);
        if (next == null) {
            balancer.newIdle(p.id);
            next = pickRunnable(rq);
        }
        LinuxTask curr = rq.curr;
        if (next != curr) {
            if (curr != null) {
                rq.queued.add(curr); // put_prev_entity
            }
            if (next != null) {
                rq.queued.remove(next);
                next.execStart = ctx.now();
                next.switchesIn++;
                switchesIn++;
                picked(next);
            }
            rq.curr = next;
        } else if (next != null && runNanos(rq, next) <= 0) {
            picked(next); // re-picked after its slice: a new slice
        }
        rq.skip = null; // a yield skips one pick
        if (next == null) {
            balancer.wentIdle(p.id);
            return Decision.idle();
        }
        rq.clearBuddies(next);
        return new Decision(next.v, Math.max(1, noticedIn(runNanos(rq, next))));
    }

    /**
     * pick_next_entity (6.12): a delayed sleeper that pick_eevdf chooses is dequeued for good
     * (dequeue_entities with DEQUEUE_DELAYED) and the pick starts again (pick_task_fair's "goto again").
     */
    private LinuxTask pickRunnable(LinuxRq rq) {
        LinuxTask next = pick(rq);
        while (next != null && next.delayed) {
            finishDelayedDequeue(rq, next);
            next = pick(rq);
        }
        return next;
    }

    /**
     * dequeue_entity(DEQUEUE_SLEEP | DEQUEUE_DELAYED): update_entity_lag, off the queue, then
     * finish_delayed_dequeue_entity (DELAY_ZERO: a positive lag is dropped, kernel/sched/fair.c 6.12).
     */
    void finishDelayedDequeue(LinuxRq rq, LinuxTask t) {
        t.updateAvg(ctx.now());
        beforeDequeue(rq, t);
        if (rq.curr == t) {
            t.onRq = false;
            rq.nr--;
            rq.load -= t.weight;
            rq.clearBuddies(t);
        } else {
            rq.remove(t);
        }
        t.delayed = false;
        t.vlag = Math.min(0, t.vlag);
        rq.updateMinVruntime();
    }

    @Override
    public void contextSaved(Vcpu prev) {
        // put_prev_entity already re-queued it in doSchedule
    }

    /** sched_yield: yield_task_fair for the running v. */
    @Override
    public void yield(Vcpu v) {
        LinuxTask t = task(v);
        if (t != null && t.rq.curr == t) {
            yieldTask(t.rq, t);
        }
    }

    /** kernel/sched/core.c yield_to with yield_to_task_fair: the target becomes the next buddy, the caller yields. */
    @Override
    public YieldToResult yieldTo(Vcpu from, Vcpu to) {
        LinuxTask f = task(from);
        LinuxTask t = task(to);
        if (f == null || t == null) {
            return YieldToResult.FAILED;
        }
        LinuxRq rq = f.rq;
        LinuxRq prq = t.rq;
        if (rq.nr == 1 && prq.nr == 1) {
            return YieldToResult.ESRCH;
        }
        if (prq.curr == t || !t.onRq || t.delayed) {
            return YieldToResult.FAILED; // task_on_cpu(p_rq, p) || !task_is_running(p)
        }
        prq.next = t; // set_next_buddy
        if (rq.curr == f) {
            yieldTask(rq, f);
        }
        if (prq != rq) {
            ctx.tickle(prq.cpu); // resched_curr(p_rq): preempt = true
        }
        return YieldToResult.YIELDED;
    }

    @Override
    public int nrRunning(Pcpu p) {
        return rqs[p.id].nr;
    }

    /** A VM's weight changed: reweight_entity for each of its tasks. */
    @Override
    public void domainParamsChanged(Vm vm) {
        int w = NiceWeights.of(vm);
        for (Vcpu v : vm.vcpus) {
            LinuxTask t = task(v);
            if (t == null || t.weight == w) {
                continue;
            }
            LinuxRq rq = t.rq;
            boolean queued = t.onRq && rq.curr != t;
            if (rq.curr == t) {
                updateCurr(rq);
            }
            if (queued) {
                rq.queued.remove(t);
            }
            if (t.onRq) {
                rq.load += w - t.weight;
            }
            reweighted(t, t.weight, w);
            t.weight = w;
            if (queued) {
                rq.queued.add(t);
            }
        }
    }

    /** reweight_entity's class-specific part (EEVDF rescales the deadline's distance). */
    void reweighted(LinuxTask t, int oldWeight, int newWeight) {
    }

    @Override
    public int lockDomain(Pcpu p) {
        return p.id; // one rq->lock per CPU
    }

    @Override
    public int runqueueCount() {
        return rqs.length;
    }

    /** An idle CPU pulls within its widest domain's interval (times two for the skew) plus the cache-hot time. */
    @Override
    public long balancePeriodNanos() {
        return 2 * balancer.widestIntervalNanos() + params.migrationCostNanos + 2_000_000L;
    }

    /** Moves the queued t from src to dst (detach_task + attach_task); v.processor follows. */
    void migrateQueued(LinuxTask t, LinuxRq src, LinuxRq dst) {
        beforeDequeue(src, t);
        src.remove(t);
        renormalize(t, src, dst);
        placeMigrated(dst, t);
        dst.add(t);
        t.v.processor = dst.cpu;
    }

    /** A balancer-moved task is placed on its new queue (EEVDF: place_entity with its lag). */
    void placeMigrated(LinuxRq dst, LinuxTask t) {
    }
}
