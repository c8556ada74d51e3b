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
import java.util.LinkedHashMap;
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
    /** The task groups (cgroups) the run's tasks name, in the order they were first named. */
    final Map<String, TaskGroup> groups = new LinkedHashMap<>();
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
        TaskGroup g = TaskGroups.groupOf(v.vm, ctx.schedParams(v.vm), groups, rqs);
        LinuxTask t = new LinuxTask(v, NiceWeights.of(v.vm), g == null ? rqs[v.processor] : g.rqs[v.processor]);
        if (g != null) {
            t.group = g;
            g.members.add(t);
        }
        v.policyData = t;
    }

    @Override
    public void removeVcpu(Vcpu v) {
        LinuxTask t = task(v);
        if (t != null && t.delayed) {
            finishDelayedDequeue(t.rq, t);
        }
        if (t != null && t.group != null) {
            t.group.members.remove(t);
        }
        v.policyData = null;
    }

    /** The run queue a task (or group entity) queues on at {@code cpu}: its group's there, else the CPU's root. */
    LinuxRq cfsRqOf(LinuxTask t, int cpu) {
        return t.group == null ? rqs[cpu] : t.group.rqs[cpu];
    }

    static LinuxTask task(Vcpu v) {
        return (LinuxTask) v.policyData;
    }

    /**
     * update_curr at rq and, below a running group entity, at its run queue (each level accounts its own curr from
     * its own exec_start, as entity_tick's for_each_sched_entity does).
     */
    void updateCurr(LinuxRq rq) {
        updateCurrAt(rq);
        LinuxTask c = rq.curr;
        if (c != null && c.my != null) {
            updateCurr(c.my);
        }
    }

    /** update_curr: account the running entity's time since exec_start. */
    private void updateCurrAt(LinuxRq rq) {
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
                rq.root().reschedPending = true;
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
            if (best < 0 || rqs[c].hNr < rqs[best].hNr) {
                best = c;
            }
        }
        return best;
    }

    /** enqueue_task_fair on the CPU pickCpu chose, then check_preempt_wakeup (idle CPU: just tickle). */
    @Override
    public void wake(Vcpu v) {
        LinuxTask t = task(v);
        LinuxRq root = rqs[v.processor];
        updateCurr(root);
        LinuxRq rq = cfsRqOf(t, root.cpu);
        if (t.delayed) {
            // ttwu_runnable: enqueue_task(ENQUEUE_DELAYED), then wakeup_preempt unless it is still on the CPU
            // (only a root group's task is delayed: EevdfPolicy.delaysDequeue)
            t.updateAvg(ctx.now());
            requeueDelayed(rq, t);
            if (root.curr == null || root.curr == t || wakeupPreemptsMatching(root, t) || root.reschedPending) {
                ctx.tickle(root.cpu);
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
        enqueueGroupEntity(rq);
        // a slice end that update_curr noticed on this wake-up's path (enqueue_entity, check_preempt_wakeup_fair)
        // reschedules as well, whichever task pick_eevdf then prefers
        if (root.curr == null || wakeupPreemptsMatching(root, t) || root.reschedPending) {
            ctx.tickle(root.cpu);
        }
    }

    /**
     * enqueue_task_fair above a group's run queue that just gained a task: the group entity is (re)weighted by
     * update_cfs_group and, when not yet queued, placed and queued on the root run queue (enqueue_entity).
     */
    private void enqueueGroupEntity(LinuxRq grq) {
        LinuxTask gse = grq.owner;
        if (gse == null) {
            return;
        }
        LinuxRq parent = gse.rq;
        updateCurr(parent);
        reweightGroupEntity(gse);
        if (!gse.onRq) {
            place(parent, gse, false);
            parent.add(gse);
        }
    }

    /** dequeue_task_fair above a group's run queue that lost a task: an empty group's entity leaves too. */
    private void dequeueGroupEntity(LinuxRq grq) {
        LinuxTask gse = grq.owner;
        if (gse == null || !gse.onRq) {
            return;
        }
        LinuxRq parent = gse.rq;
        updateCurr(parent);
        if (grq.nr > 0) {
            reweightGroupEntity(gse);
            return;
        }
        dequeueEntity(parent, gse);
    }

    /** update_cfs_group -> reweight_entity: the group entity's weight becomes calc_group_shares. */
    private void reweightGroupEntity(LinuxTask gse) {
        int w = (int) gse.my.tg.sharesOn(gse.my.cpu, ctx.now());
        if (w == gse.weight) {
            return;
        }
        if (gse.onRq) {
            gse.rq.load += w - gse.weight;
        }
        groupReweighted(gse, gse.weight, w);
        gse.weight = w;
    }

    /** reweight_entity's class-specific part for a group entity (EEVDF keeps the deadline's or lag's wall distance). */
    void groupReweighted(LinuxTask gse, int oldWeight, int newWeight) {
    }

    /**
     * check_preempt_wakeup after find_matching_se: the running task's and the woken task's entities are compared
     * on the run queue they share (the group's when both are in it, else the root's, through their group entities).
     */
    private boolean wakeupPreemptsMatching(LinuxRq root, LinuxTask t) {
        LinuxTask running = root.runningTask();
        if (t.group == null || (running != null && running.rq == t.rq)) {
            return wakeupPreempts(t.rq, t);
        }
        return wakeupPreempts(root, t.group.entities[root.cpu]);
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
        dequeueEntity(rq, t);
        dequeueGroupEntity(rq);
    }

    /**
     * dequeue_entity: the class's lag or vruntime bookkeeping, then off the queue (a running entity stays curr until
     * the schedule that follows), and the queue's min_vruntime follows.
     */
    private void dequeueEntity(LinuxRq rq, LinuxTask t) {
        beforeDequeue(rq, t);
        if (rq.curr == t) {
            rq.leave(t);
        } else {
            rq.remove(t);
        }
        rq.updateMinVruntime();
    }

    /** pick_next_task_fair (put_prev_entity + set_next_entity); an idle CPU first tries newidle balancing. */
    @Override
    public Decision doSchedule(Pcpu p, Vcpu prev, boolean prevYielded) {
        LinuxRq rq = rqs[p.id];
        updateCurr(rq);
        for (LinuxRq r = rq; r != null && r.curr != null; ) {
            LinuxTask c = r.curr;
            if (!c.onRq) {
                r.curr = null; // it slept: already off the queue
            } else if (c.delayed) {
                r.queued.add(c); // put_prev_entity: a delayed sleeper stays in the tree
                r.curr = null;
            }
            r = c.my;
        }
        rq.reschedPending = false; // __schedule clears TIF_NEED_RESCHED
        LinuxTask next = pickRunnable(rq);
        if (next == null) {
            balancer.newIdle(p.id);
            next = pickRunnable(rq);
        }
        long run = setNext(rq, next);
        LinuxTask task = next;
        while (task != null && task.my != null) {
            task = task.my.curr;
        }
        if (task == null) {
            balancer.wentIdle(p.id);
            return Decision.idle();
        }
        return new Decision(task.v, Math.max(1, noticedIn(run)));
    }

    /**
     * put_prev_entity and set_next_entity on rq for its picked entity {@code next} and, below a group entity, on its
     * run queue for what pick_next_task_fair picks there; the running time until the first level's slice ends.
     */
    private long setNext(LinuxRq rq, LinuxTask next) {
        LinuxTask curr = rq.curr;
        if (next != curr) {
            if (curr != null) {
                rq.queued.add(curr); // put_prev_entity
                if (curr.my != null && curr != next) {
                    setNext(curr.my, null); // put_prev_task_fair walks the whole previous hierarchy
                }
            }
            if (next != null) {
                rq.queued.remove(next);
                next.execStart = ctx.now();
                if (next.my == null) {
                    next.switchesIn++;
                    switchesIn++;
                }
                picked(next);
            }
            rq.curr = next;
        } else if (next != null && runNanos(rq, next) <= 0) {
            picked(next); // re-picked after its slice: a new slice
        }
        rq.skip = null; // a yield skips one pick
        if (next == null) {
            return Long.MAX_VALUE;
        }
        rq.clearBuddies(next);
        long run = runNanos(rq, next);
        if (next.my != null) {
            run = Math.min(run, setNext(next.my, pick(next.my)));
        }
        return run;
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
        dequeueEntity(rq, t);
        t.delayed = false;
        t.vlag = Math.min(0, t.vlag);
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
        if (rq.root().hNr == 1 && prq.root().hNr == 1) {
            return YieldToResult.ESRCH;
        }
        if (prq.curr == t || !t.onRq || t.delayed) {
            return YieldToResult.FAILED; // task_on_cpu(p_rq, p) || !task_is_running(p)
        }
        prq.next = t; // set_next_buddy, at every level
        if (t.group != null) {
            prq.root().next = t.group.entities[prq.cpu];
        }
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
        return rqs[p.id].hNr;
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
        LinuxRq from = t.rq;
        LinuxRq to = cfsRqOf(t, dst.cpu);
        beforeDequeue(from, t);
        from.remove(t);
        dequeueGroupEntity(from);
        renormalize(t, from, to);
        placeMigrated(to, t);
        to.add(t);
        enqueueGroupEntity(to);
        t.v.processor = dst.cpu;
    }

    /** A balancer-moved task is placed on its new queue (EEVDF: place_entity with its lag). */
    void placeMigrated(LinuxRq dst, LinuxTask t) {
    }
}
