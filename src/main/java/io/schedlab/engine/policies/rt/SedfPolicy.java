package io.schedlab.engine.policies.rt;

import io.schedlab.engine.model.Pcpu;
import io.schedlab.engine.model.Topology;
import io.schedlab.engine.model.Vcpu;
import io.schedlab.engine.model.VcpuState;
import io.schedlab.engine.policies.Decision;
import io.schedlab.engine.policies.LockWork;
import io.schedlab.engine.policies.SchedulerContext;
import io.schedlab.engine.policies.SchedulerPolicy;
import io.schedlab.engine.policies.SelfCheckAssumptions;
import io.schedlab.engine.policies.xen.AffinityBalance;
import io.schedlab.engine.params.Params;
import io.schedlab.engine.registry.PolicyDescriptor;
import io.schedlab.engine.registry.StatisticSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code sedf}: Xen's simple EDF scheduler as in its last release (xen/common/sched_sedf.c, RELEASE-4.5.0),
 * and {@code gedf}: seed 000's variant of it with ONE global set of queues behind one spinlock.
 * <p>
 * Per queue set: a run queue of vCPUs inside their period with slice left, sorted by deadline; a wait queue
 * of vCPUs whose next period has not begun, sorted by period start; an extra queue of extra-aware vCPUs
 * served round robin in EXTRA_QUANTUM slices when no vCPU is in its period (sedf_do_extra_schedule). A vCPU
 * that used its slice waits for its next period (desched_edf_dom); one that overran its deadline is moved on
 * and counted (update_queues). A wake-up after the period's end starts a new period at once
 * (unblock_long_cons_b). Simplifications: the block-penalty extra queue (EXTRA_PEN_Q, short-block
 * compensation) is not modelled, extra weights are all 1 (round robin), latency scaling has no effect (as in
 * 4.5, whose unblock path does not use it).
 * <p>
 * sedf: one queue set and lock per pCPU, a vCPU stays on the pCPU sedf_pick_cpu gives it (vcpu_id modulo
 * its affinity), a wake-up tickles only that pCPU (should_switch). gedf: every pCPU picks from the global
 * queues the first vCPU not running elsewhere; a wake-up tickles an idle allowed pCPU (its own first), else
 * the pCPU running the lowest-priority vCPU (extra time below any deadline, then the latest deadline) if that
 * is lower than the woken one (the model's preemptive global EDF; seed 000 gives no code).
 */
public final class SedfPolicy implements SchedulerPolicy, LockWork, SelfCheckAssumptions {
    public static final String SEDF = "sedf";
    public static final String GEDF = "gedf";
    static final String STAT_MISSES = "deadlineMisses";
    static final String STAT_EXTRA = "extraTimeNanos";

    private final SedfParams params;
    private final boolean global;
    private SchedulerContext ctx;
    private Topology topo;
    private int n;
    private Queues[] queues;
    /** current_slice_expires per pCPU. */
    private long[] sliceExpires;
    private final List<SedfVcpu> all = new ArrayList<>();

    /** The run, wait and extra queues of one pCPU (sedf) or of the host (gedf). */
    private static final class Queues {
        final EdfQueue<SedfVcpu> runq = new EdfQueue<>((a, b) -> b.deadline - a.deadline, s -> s.queueLabel,
                (s, l) -> s.queueLabel = l);
        final EdfQueue<SedfVcpu> waitq = new EdfQueue<>((a, b) -> b.periodBegin() - a.periodBegin(),
                s -> s.queueLabel, (s, l) -> s.queueLabel = l);
        final FifoQueue extraq = new FifoQueue();
    }

    public SedfPolicy(SedfParams params, boolean global) {
        this.params = params;
        this.global = global;
    }

    /** Registry entry of sedf (per-pCPU queues). */
    public static PolicyDescriptor descriptor() {
        return descriptor(SEDF, "Xen sEDF (<= 4.5): per-pCPU EDF queues, period/slice/extra/weight per VM or vCPU, "
                + "extra time round robin", false);
    }

    /** Registry entry of gedf (seed 000: sEDF with one global queue behind one spinlock). */
    public static PolicyDescriptor gedfDescriptor() {
        return descriptor(GEDF, "seed 000's global EDF: sEDF with ONE global run/wait/extra queue behind one "
                + "spinlock, preemptive wake-ups", true);
    }

    private static PolicyDescriptor descriptor(String name, String description, boolean global) {
        return new PolicyDescriptor(name, description, SedfParams.specs(),
                p -> new SedfPolicy(SedfParams.from(p), global))
                .withSchedParams(SedfParams.vcpuSpecs(), SedfParams.vcpuSpecs(), SedfParams::check)
                .withStatistics(List.of(
                        StatisticSpec.runAndVcpu(STAT_MISSES, "count",
                                "periods found over (deadline passed or slice overrun) by update_queues"),
                        StatisticSpec.runAndVcpu(STAT_EXTRA, "ns", "time run in extra time")))
                .with(new SedfRelease());
    }

    @Override
    public void init(SchedulerContext ctx) {
        this.ctx = ctx;
        this.topo = ctx.topology();
        this.n = topo.size();
        this.queues = new Queues[global ? 1 : n];
        for (int i = 0; i < queues.length; i++) {
            queues[i] = new Queues();
        }
        this.worked = new int[queues.length];
        this.isWorked = new boolean[queues.length];
        this.sliceExpires = new long[n];
    }

    private static SedfVcpu inf(Vcpu v) {
        return (SedfVcpu) v.policyData;
    }

    private Queues queuesOf(int cpu) {
        return worked(global ? 0 : cpu);
    }

    /**
     * The queues reached since the last {@link #takeLockWork}, each listed once: only they can hold lock work, so
     * taking it sums these instead of every pCPU's three queues on each decision (the same total).
     */
    private int[] worked;
    private boolean[] isWorked;
    private int workedCount;

    /** Queues i, listed as reached (every access to the queues goes through here). */
    private Queues worked(int i) {
        if (!isWorked[i]) {
            isWorked[i] = true;
            worked[workedCount++] = i;
        }
        return queues[i];
    }

    // ---------------------------------------------------------------- parameters

    private void loadParams(SedfVcpu inf) {
        Params p = ctx.schedParams(inf.vcpu);
        inf.periodOrig = p.getLong(SedfParams.PERIOD) * 1_000L;
        inf.sliceOrig = p.getLong(SedfParams.SLICE) * 1_000L;
        inf.latency = p.getLong(SedfParams.LATENCY) * 1_000L;
        inf.extraAware = p.getBoolean(SedfParams.EXTRA);
        inf.weight = p.getInt(SedfParams.WEIGHT);
        inf.period = inf.periodOrig;
        inf.slice = inf.sliceOrig;
    }

    /**
     * sedf_adjust_weights: a weighted vCPU gets period WEIGHT_PERIOD and the weight's share of what the
     * period/slice vCPUs of its pCPU leave (minus WEIGHT_SAFETY). gedf shares the whole host (n pCPUs), each
     * vCPU at most one pCPU's share.
     */
    private void adjustWeights() {
        long wp = params.weightPeriodNanos();
        long[] sumw = new long[queues.length];
        long[] sumt = new long[queues.length];
        for (SedfVcpu inf : all) {
            int q = global ? 0 : inf.vcpu.processor;
            if (inf.removed) {
                continue;
            }
            if (inf.weight > 0) {
                sumw[q] += inf.weight;
            } else if (inf.periodOrig > 0) {
                sumt[q] += wp * inf.sliceOrig / inf.periodOrig;
            }
        }
        long capacity = (wp - params.weightSafetyNanos()) * (global ? n : 1);
        for (SedfVcpu inf : all) {
            int q = global ? 0 : inf.vcpu.processor;
            if (!inf.removed && inf.weight > 0) {
                long share = Math.max(0, capacity - sumt[q]) * inf.weight / sumw[q];
                inf.periodOrig = inf.period = wp;
                inf.sliceOrig = inf.slice = Math.min(share, wp - params.weightSafetyNanos());
            }
        }
    }

    @Override
    public void schedParamsChanged(Vcpu v) {
        loadParams(inf(v));
        adjustWeights();
    }

    // ---------------------------------------------------------------- insert, remove, pick

    @Override
    public void addVcpu(Vcpu v) {
        SedfVcpu inf = new SedfVcpu(v);
        v.policyData = inf;
        all.add(inf);
        loadParams(inf);
        adjustWeights();
    }

    @Override
    public void removeVcpu(Vcpu v) {
        SedfVcpu inf = inf(v);
        delFromQueues(inf);
        inf.removed = true; // keeps its statistics, no longer shares the weights
        adjustWeights();
    }

    /** sedf_pick_cpu: cpumask_cycle(vcpu_id % weight(affinity) - 1) over the hard affinity; gedf: stay if allowed. */
    @Override
    public int pickCpu(Vcpu v) {
        if (global) {
            return v.allowedOn(v.processor) ? v.processor : AffinityBalance.cycle(v.processor, v.hardAffinity, n);
        }
        int weight = v.hardAffinity.cardinality();
        return AffinityBalance.cycle(v.index % weight - 1, v.hardAffinity, n);
    }

    // ---------------------------------------------------------------- wake, sleep

    /** sedf_wake. */
    @Override
    public void wake(Vcpu v) {
        SedfVcpu inf = inf(v);
        if (inf.onRunq || inf.onWaitq) {
            return;
        }
        long now = ctx.now();
        inf.asleep = false;
        if (inf.deadline == 0) {
            inf.deadline = now + inf.slice; // sedf_wake's first-wake-up rule, as written
        }
        if (now >= inf.periodBegin() && now >= inf.deadline) {
            inf.deadline = now + inf.period; // unblock_long_cons_b
            inf.cputime = 0;
        }
        Queues q = queuesOf(v.processor);
        if (inf.extraAware) {
            q.extraq.add(inf);
            inf.onExtraq = true;
        }
        queueByPeriod(inf, q, now);
        tickleFor(inf, now);
    }

    /** sedf_sleep: a running vCPU is descheduled by the simulator; a queued one leaves every queue. */
    @Override
    public void sleep(Vcpu v) {
        SedfVcpu inf = inf(v);
        inf.asleep = true;
        if (topo.pcpu(v.processor).current != v) {
            delFromQueues(inf);
        }
    }

    /**
     * sedf has no context_saved hook (its descheduled vCPU stays queued). gedf, as seed 000 measures it, puts
     * prev back on the global queues here, under the global lock ("re-queue prev").
     */
    @Override
    public void contextSaved(Vcpu prev) {
        SedfVcpu inf = inf(prev);
        if (!inf.requeuePending) {
            return;
        }
        inf.requeuePending = false;
        if (inf.asleep || inf.onRunq || inf.onWaitq) {
            return; // blocked, or woken and queued again meanwhile
        }
        Queues q = worked(0);
        if (inf.requeueExtra && inf.extraAware && !inf.onExtraq) {
            q.extraq.add(inf);
            inf.onExtraq = true;
        }
        queueByPeriod(inf, q, ctx.now());
    }

    // ---------------------------------------------------------------- do_schedule

    /** sedf_do_schedule: deschedule the current vCPU, update the queues, pick EDF, else extra time, else idle. */
    @Override
    public Decision doSchedule(Pcpu p, Vcpu prev, boolean prevYielded) {
        long now = ctx.now();
        int cpu = p.id;
        Queues q = queuesOf(cpu);
        if (prev != null) {
            SedfVcpu inf = inf(prev);
            if (prev.state != VcpuState.RUNNING) {
                inf.asleep = true;
            }
            if (inf.runningExtra) {
                deschedExtra(now, inf, q);
            } else {
                deschedEdf(now, inf, q);
            }
        }
        updateQueues(now, cpu, q);
        SedfVcpu next = null;
        long time;
        SedfVcpu runHead = q.runq.first(SedfPolicy::mayRunOn, cpu);
        SedfVcpu waitHead = q.waitq.head();
        if (q.runq.isEmpty() && waitHead == null) {
            time = params.idleNanos();
        } else if (runHead != null) {
            next = runHead;
            time = runHead.slice - runHead.cputime;
            if (waitHead != null) {
                time = Math.min(now + time, waitHead.periodBegin()) - now;
            }
        } else {
            long endExtra = waitHead != null ? waitHead.periodBegin() : now + params.idleNanos();
            SedfVcpu extra = endExtra - now < params.extraQuantumNanos() ? null
                    : q.extraq.first(SedfPolicy::mayRunOn, cpu);
            if (extra != null) {
                extra.runningExtra = true;
                next = extra;
                time = params.extraQuantumNanos();
            } else {
                time = endExtra - now;
            }
        }
        if (time <= 0) {
            time = params.extraQuantumNanos(); // "Ouch! We are seriously BEHIND schedule!"
        }
        sliceExpires[cpu] = now + time;
        if (global && prev != null && (next == null || next.vcpu != prev) && !inf(prev).asleep) {
            SedfVcpu pi = inf(prev); // off the queues until context_saved re-queues it
            pi.requeueExtra = pi.onExtraq;
            delFromQueues(pi);
            pi.requeuePending = true;
        }
        if (next == null) {
            return new Decision(null, time);
        }
        next.schedStart = now;
        return new Decision(next.vcpu, time);
    }

    /** Queued vCPUs are picked where allowed and not already running on another pCPU (global queues). */
    private static boolean mayRunOn(SedfVcpu e, int cpu) {
        Vcpu v = e.vcpu;
        return v.allowedOn(cpu) && !e.asleep && (v.state != VcpuState.RUNNING || v.processor == cpu);
    }

    /** desched_edf_dom: charge the run; with the slice used (or asleep) leave the run queue for the next period. */
    private void deschedEdf(long now, SedfVcpu inf, Queues q) {
        inf.cputime += now - inf.schedStart;
        if (inf.cputime < inf.slice && !inf.asleep) {
            return;
        }
        removeRunOrWait(inf, q);
        if (inf.cputime >= inf.slice) {
            inf.cputime -= inf.slice;
            inf.deadline += inf.period;
        }
        if (!inf.asleep) {
            q.waitq.insert(inf);
            inf.onWaitq = true;
        } else if (inf.onExtraq) {
            q.extraq.remove(inf);
            inf.onExtraq = false;
        }
    }

    /** desched_extra_dom (utilisation queue): account the extra time, go to the extra queue's tail. */
    private void deschedExtra(long now, SedfVcpu inf, Queues q) {
        inf.runningExtra = false;
        inf.cputime = 0;
        inf.extraTimeNanos += now - inf.schedStart;
        q.extraq.remove(inf);
        inf.onExtraq = false;
        if (!inf.asleep) {
            if (inf.extraAware) {
                q.extraq.add(inf);
                inf.onExtraq = true;
            }
        } else {
            removeRunOrWait(inf, q);
        }
    }

    /**
     * update_queues: started periods move to the run queue; best-effort and overdue entries move on. gedf skips
     * entries running on another pCPU: their pCPU accounts them when it deschedules them (per-pCPU sEDF never
     * sees another pCPU's running vCPU here).
     */
    private void updateQueues(long now, int cpu, Queues q) {
        while (!q.waitq.isEmpty() && q.waitq.head().periodBegin() <= now) {
            SedfVcpu inf = q.waitq.head();
            q.waitq.remove(inf);
            inf.onWaitq = false;
            q.runq.insert(inf);
            inf.onRunq = true;
        }
        int i = 0;
        while (i < q.runq.size()) {
            SedfVcpu inf = q.runq.get(i);
            q.runq.addWork(1);
            if (inf.vcpu.state == VcpuState.RUNNING && inf.vcpu.processor != cpu) {
                i++;
            } else if (inf.slice == 0) {
                q.runq.remove(inf);
                inf.onRunq = false;
                inf.deadline += inf.period;
                if (inf.periodBegin() < now) {
                    inf.deadline += divUp(now - inf.periodBegin(), inf.period) * inf.period;
                }
                q.waitq.insert(inf);
                inf.onWaitq = true;
            } else if (inf.deadline < now || inf.cputime > inf.slice) {
                inf.deadlineMisses++; // "exceeded it's deadline/slice"
                q.runq.remove(inf);
                inf.onRunq = false;
                inf.deadline += inf.period;
                if (inf.deadline < now) {
                    inf.deadline += divUp(now - inf.deadline, inf.period) * inf.period;
                }
                inf.cputime = 0;
                queueByPeriod(inf, q, now);
            } else {
                break;
            }
        }
    }

    /** Into the run queue when its period has begun, else the wait queue (sedf_wake, update_queues). */
    private static void queueByPeriod(SedfVcpu inf, Queues q, long now) {
        if (inf.periodBegin() > now) {
            q.waitq.insert(inf);
            inf.onWaitq = true;
        } else {
            q.runq.insert(inf);
            inf.onRunq = true;
        }
    }

    private static long divUp(long x, long y) {
        return (x + y - 1) / y;
    }

    private void removeRunOrWait(SedfVcpu inf, Queues q) {
        if (inf.onRunq) {
            q.runq.remove(inf);
            inf.onRunq = false;
        } else if (inf.onWaitq) {
            q.waitq.remove(inf);
            inf.onWaitq = false;
        }
    }

    private void delFromQueues(SedfVcpu inf) {
        Queues q = queuesOf(inf.vcpu.processor);
        removeRunOrWait(inf, q);
        if (inf.onExtraq) {
            q.extraq.remove(inf);
            inf.onExtraq = false;
        }
    }

    // ---------------------------------------------------------------- tickling

    /** sedf: should_switch on the vCPU's own pCPU; gedf: an idle pCPU, else the lowest-priority running one. */
    private void tickleFor(SedfVcpu inf, long now) {
        Vcpu v = inf.vcpu;
        if (!global) {
            Vcpu cur = topo.pcpu(v.processor).current;
            if (inf.periodBegin() < sliceExpires[v.processor] || cur == null) {
                ctx.tickle(v.processor);
            }
            return;
        }
        boolean inPeriod = inf.periodBegin() <= now && inf.slice > 0;
        SedfVcpu lowest = null;
        for (int k = 0; k < n; k++) {
            int c = (v.processor + k) % n;
            if (!v.allowedOn(c)) {
                continue;
            }
            worked(0).runq.addWork(1);
            Vcpu cur = topo.pcpu(c).current;
            if (cur == null) {
                ctx.tickle(c);
                return;
            }
            SedfVcpu other = inf(cur);
            if (lowest == null || lower(other, lowest)) {
                lowest = other;
            }
        }
        if (lowest != null && inPeriod && (lowest.runningExtra || inf.deadline < lowest.deadline)) {
            ctx.tickle(lowest.vcpu.processor);
        }
    }

    /** True when a runs at a lower priority than b: extra time below deadlines, later deadlines below earlier. */
    private static boolean lower(SedfVcpu a, SedfVcpu b) {
        if (a.runningExtra != b.runningExtra) {
            return a.runningExtra;
        }
        return a.deadline > b.deadline;
    }

    // ---------------------------------------------------------------- introspection

    @Override
    public long takeLockWork() {
        long work = 0;
        for (int k = 0; k < workedCount; k++) {
            Queues q = queues[worked[k]];
            work += q.runq.takeWork() + q.waitq.takeWork() + q.extraq.takeWork();
            isWorked[worked[k]] = false;
        }
        workedCount = 0;
        return work;
    }

    @Override
    public int lockDomain(Pcpu p) {
        return global ? 0 : p.id; // gedf: the one global spinlock; sedf: the per-pCPU schedule lock
    }

    @Override
    public int runqueueOf(Pcpu p) {
        return global ? 0 : p.id;
    }

    @Override
    public int runqueueCount() {
        return global ? 1 : n;
    }

    /** Neither: sedf never moves a vCPU between pCPUs, and both idle a pCPU when extra time is too short to hand out. */
    @Override
    public boolean workConserving() {
        return false;
    }

    @Override
    public Map<String, Long> statistics() {
        long misses = 0;
        long extra = 0;
        for (SedfVcpu s : all) {
            misses += s.deadlineMisses;
            extra += s.extraTimeNanos;
        }
        return Map.of(STAT_MISSES, misses, STAT_EXTRA, extra);
    }

    @Override
    public Map<String, Long> statistics(Vcpu v) {
        SedfVcpu s = inf(v);
        return Map.of(STAT_MISSES, s.deadlineMisses, STAT_EXTRA, s.extraTimeNanos);
    }
}
