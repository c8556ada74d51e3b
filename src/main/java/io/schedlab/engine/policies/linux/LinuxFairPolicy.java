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
    LinuxBalancer balancer;
    /** sysctl_sched_tunable_scaling factor for this host's CPU count. */
    long factor;
    /** Switch-ins of every task in the run (the sum of {@link LinuxTask#switchesIn}, removed tasks included). */
    long switchesIn;

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
        factor = LinuxParams.factor(params.tunableScaling, topo.size());
        siblingIds = new int[topo.size()][];
        llcCpus = new int[topo.sockets()][];
        int[] inSocket = new int[topo.sockets()];
        for (int p = 0; p < rqs.length; p++) {
            siblingIds[p] = topo.siblings(p).stream().mapToInt(s -> s.id).toArray();
            inSocket[topo.pcpu(p).socket]++;
        }
        llcPosition = new int[topo.size()];
        for (int s = 0; s < llcCpus.length; s++) {
            llcCpus[s] = new int[inSocket[s]];
            inSocket[s] = 0;
        }
        for (int p = 0; p < rqs.length; p++) { // ascending ids within each socket
            int s = topo.pcpu(p).socket;
            llcPosition[p] = inSocket[s];
            llcCpus[s][inSocket[s]++] = p;
        }
        balancer = new LinuxBalancer(this, topo);
        balancer.start();
    }

    @Override
    public void addVcpu(Vcpu v) {
        v.policyData = new LinuxTask(v, NiceWeights.of(v.vm), rqs[v.processor]);
    }

    @Override
    public void removeVcpu(Vcpu v) {
        v.policyData = null;
    }

    /** Per CPU, its SMT siblings' ids ({@link Topology#siblings}, listed once: {@link #coreIdle} runs per scanned CPU). */
    private int[][] siblingIds;
    /**
     * Per socket (the LLC, sd_llc), its CPUs in ascending ids, and each CPU's index there: select_idle_sibling's
     * for_each_cpu_wrap over sched_domain_span(sd_llc) from the previous CPU walks this list instead of every CPU.
     */
    private int[][] llcCpus;
    private int[] llcPosition;

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
        int prev = v.processor;
        if (!v.allowedOn(prev)) {
            return leastLoadedAllowed(v);
        }
        if (rqs[prev].nr == 0) {
            return prev;
        }
        int[] llc = llcCpus[ctx.topology().pcpu(prev).socket];
        int n = llc.length;
        int from = llcPosition[prev];
        // select_idle_core: a core whose every sibling is idle, scanning the LLC after prev (for_each_cpu_wrap).
        for (int i = 1; i < n; i++) {
            int c = llc[(from + i) % n];
            if (v.allowedOn(c) && rqs[c].nr == 0 && coreIdle(c)) {
                return c;
            }
        }
        // select_idle_cpu: any idle CPU of the LLC.
        for (int i = 1; i < n; i++) {
            int c = llc[(from + i) % n];
            if (v.allowedOn(c) && rqs[c].nr == 0) {
                return c;
            }
        }
        return prev;
    }

    private boolean coreIdle(int cpu) {
        for (int s : siblingIds[cpu]) {
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
        }
        rq.reschedPending = false; // __schedule clears TIF_NEED_RESCHED
        LinuxTask next = pick(rq);
        if (next == null) {
            balancer.newIdle(p.id);
            next = pick(rq);
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
        if (prq.curr == t || !t.onRq) {
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
