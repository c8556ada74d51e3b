package io.schedlab.engine.policies.linux;

import io.schedlab.engine.model.Vcpu;
import io.schedlab.engine.params.ParameterSpec;
import io.schedlab.engine.policies.SchedulerContext;
import io.schedlab.engine.policies.SchedulerContext.TimerHandle;
import io.schedlab.engine.registry.PolicyDescriptor;
import io.schedlab.engine.registry.StatisticSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Linux EEVDF (kernel/sched/fair.c from 6.6) as KVM's host scheduler: among the eligible tasks (lag >= 0,
 * i.e. vruntime <= the load-weighted average V) the earliest virtual deadline runs; a deadline is
 * vruntime + slice x 1024 / weight, renewed when the task's vruntime reaches it (update_deadline);
 * RUN_TO_PARITY keeps the current task until it reaches its deadline or loses eligibility; a sleeper
 * keeps its lag (clamped to one slice-or-tick, update_entity_lag) and is placed with it (PLACE_LAG);
 * a new task gets half a slice of deadline (PLACE_DEADLINE_INITIAL); yield pushes the deadline a slice out.
 * From 6.12 a task may ask for its own slice (sched_attr.sched_runtime: the VM's {@code sliceUs}) and
 * PREEMPT_SHORT lets a waking task with a shorter slice break the running task's RUN_TO_PARITY protection,
 * and DELAY_DEQUEUE keeps a task that sleeps while not eligible queued until it is picked or wakes.
 */
public final class EevdfPolicy extends LinuxFairPolicy {
    public static final String NAME = "eevdf";

    EevdfPolicy(LinuxParams params) {
        super(params);
    }

    public static PolicyDescriptor descriptor() {
        List<ParameterSpec> specs = new ArrayList<>();
        specs.add(ParameterSpec.choice(LinuxParams.KERNEL_VERSION, "6.6", List.of("6.6", "6.12", "6.15"),
                "the Linux release whose EEVDF constants apply (base slice 0.75 ms, 0.70 ms from 6.15)",
                "torvalds/linux kernel/sched/fair.c at that tag"));
        specs.add(ParameterSpec.integer("baseSliceNs", 0, 0, 1_000_000_000L, "ns",
                "sysctl_sched_base_slice before scaling; 0 = the release's (750000, 700000 from 6.15)",
                "kernel/sched/fair.c sysctl_sched_base_slice; commit 2ae891b8 (6.15)"));
        specs.add(ParameterSpec.bool("runToParity", true,
                "a woken task does not preempt until the current one reaches 0-lag or its deadline",
                "kernel/sched/features.h SCHED_FEAT(RUN_TO_PARITY, true)"));
        specs.add(ParameterSpec.bool("placeLag", true, "a waking task keeps its lag (scaled by the queue's load)",
                "kernel/sched/features.h SCHED_FEAT(PLACE_LAG, true)"));
        specs.add(ParameterSpec.bool("placeDeadlineInitial", true, "a new task starts with half a slice of deadline",
                "kernel/sched/features.h SCHED_FEAT(PLACE_DEADLINE_INITIAL, true)"));
        specs.add(ParameterSpec.bool("preemptShort", true,
                "6.12+: a waking task with a shorter slice than the running one, eligible and with the earlier"
                        + " deadline (or the running one no longer eligible), cancels the running task's RUN_TO_PARITY"
                        + " protection; a task that lost it is rescheduled once it is no longer eligible (6.6 has no"
                        + " such rule and ignores this)",
                "kernel/sched/features.h SCHED_FEAT(PREEMPT_SHORT, true); kernel/sched/fair.c do_preempt_short,"
                        + " did_preempt_short, check_preempt_wakeup_fair (commit 85e511df3cec, 6.12)"));
        specs.add(ParameterSpec.bool("delayDequeue", true,
                "6.12+: a task that sleeps while not eligible (negative lag) stays queued, still counted in V and the"
                        + " load, until it is picked (then dequeued, a positive lag dropped) or wakes (then requeued where"
                        + " it is, on the same CPU, its lag kept) (6.6 has no such rule and ignores this)",
                "kernel/sched/features.h SCHED_FEAT(DELAY_DEQUEUE, true), SCHED_FEAT(DELAY_ZERO, true);"
                        + " kernel/sched/fair.c dequeue_entity, pick_next_entity, requeue_delayed_entity;"
                        + " kernel/sched/core.c ttwu_runnable (commit 152e11f6df29, 6.12)"));
        specs.addAll(LinuxParams.common());
        return new PolicyDescriptor(NAME, "Linux EEVDF (6.6+) host scheduler under KVM: eligibility by lag, earliest "
                + "virtual deadline, RUN_TO_PARITY, PREEMPT_SHORT and per-task slices (6.12+), weights from nice and"
                + " cgroup cpu.weight, SMT/MC/NUMA load balancing",
                List.copyOf(specs), p -> new EevdfPolicy(new LinuxParams(p, true)), "kvm")
                .withSchedParams(List.of(EevdfSlices.vmSpec(), TaskGroups.vmSpec()), List.of(), p -> {
                    EevdfSlices.check(p);
                    TaskGroups.check(p);
                })
                .withStatistics(List.of(
                        StatisticSpec.runAndVcpu(STAT_SWITCHES_IN, "count",
                                "times a task was switched in on its CPU (perf sched latency's switches)"),
                        StatisticSpec.run(STAT_SHORT_PREEMPTIONS, "count",
                                "wake-ups whose shorter slice cancelled the running task's RUN_TO_PARITY protection"
                                        + " (do_preempt_short, 6.12+)"),
                        StatisticSpec.run(STAT_DELAYED_DEQUEUES, "count",
                                "sleeps that DELAY_DEQUEUE kept on their run queue because the task was not eligible"
                                        + " (6.12+)")));
    }

    static final String STAT_SWITCHES_IN = "switchesIn";
    static final String STAT_SHORT_PREEMPTIONS = "shortPreemptions";
    static final String STAT_DELAYED_DEQUEUES = "delayedDequeues";

    private long shortPreemptions;
    /** Per CPU: the pending did_preempt_short check after a wake-up cancelled the running task's protection. */
    private TimerHandle[] shortChecks;

    @Override
    public void init(SchedulerContext ctx) {
        super.init(ctx);
        shortChecks = new TimerHandle[rqs.length];
    }

    /** The VM's sliceUs (sched_attr.sched_runtime of its vCPU threads) as each task's custom slice. */
    @Override
    public void addVcpu(Vcpu v) {
        super.addVcpu(v);
        task(v).customSliceNanos = EevdfSlices.customSliceNanos(ctx.schedParams(v.vm));
    }

    /** sched_setattr at run time (__setparam_fair): the new slice applies from the task's next deadline. */
    @Override
    public void schedParamsChanged(Vcpu v) {
        LinuxTask t = task(v);
        if (t != null) {
            t.customSliceNanos = EevdfSlices.customSliceNanos(ctx.schedParams(v.vm));
        }
    }

    /**
     * se->slice: the task's own request (se->custom_slice, 6.12+, not scaled), else the base slice scaled by
     * sysctl_sched_tunable_scaling (update_deadline: {@code if (!se->custom_slice) se->slice = sysctl_sched_base_slice}).
     */
    long slice(LinuxTask t) {
        if (params.customSlices && t.customSliceNanos > 0) {
            return t.customSliceNanos;
        }
        return slice();
    }

    /** sysctl_sched_base_slice scaled by sysctl_sched_tunable_scaling: the slice of a task that requests none. */
    long slice() {
        return params.baseSliceNanos * factor;
    }

    /** place_entity (6.6): at V minus the saved lag, inflated by the load it joins; deadline one vslice on. */
    @Override
    void place(LinuxRq rq, LinuxTask t, boolean initial) {
        long v = rq.avgVruntime();
        long lag = 0;
        if (params.placeLag && rq.nr > 0 && !initial) {
            long load = rq.load;
            lag = t.vlag * (load + t.weight) / Math.max(1, load);
        }
        t.vruntime = v - lag;
        long vslice = t.toVirtual(slice(t));
        if (params.placeDeadlineInitial && initial) {
            vslice /= 2;
        }
        t.deadline = t.vruntime + vslice;
        t.atParity = false;
    }

    /**
     * dequeue_entity (6.12, DELAY_DEQUEUE): a sleeper that is not eligible (entity_eligible: its vruntime past V,
     * curr included) is not dequeued; it keeps competing so its negative lag is served off by the others. Not
     * modelled for a task in a task group (cgroup): it dequeues at once (the kernel would keep its group entity
     * queued on every level above it too, dequeue_entities).
     */
    @Override
    boolean delaysDequeue(LinuxRq rq, LinuxTask t) {
        return params.delayDequeue && t.group == null && rq.nr > 1 && t.vruntime > rq.avgVruntime();
    }

    /**
     * requeue_delayed_entity (6.12) with DELAY_ZERO: the lag it has now (update_entity_lag); a positive one is
     * dropped and the task placed at V with a new deadline (place_entity with vlag 0); a negative one stays.
     */
    @Override
    void requeueDelayed(LinuxRq rq, LinuxTask t) {
        beforeDequeue(rq, t);
        if (t.vlag > 0 && rq.curr != t) {
            rq.queued.remove(t);
            t.vlag = 0;
            place(rq, t, false);
            rq.queued.add(t);
        }
        t.delayed = false;
    }

    @Override
    void placeMigrated(LinuxRq dst, LinuxTask t) {
        place(dst, t, false);
    }

    @Override
    void renormalize(LinuxTask t, LinuxRq src, LinuxRq dst) {
        // the lag saved at dequeue carries over; place() puts it relative to the new queue's V
    }

    /** update_entity_lag: vlag = V - vruntime, clamped to +-(max(2 x slice, tick) in virtual time). */
    @Override
    void beforeDequeue(LinuxRq rq, LinuxTask t) {
        long limit = t.toVirtual(Math.max(2 * slice(t), params.tickNanos));
        t.vlag = Math.max(-limit, Math.min(limit, rq.avgVruntime() - t.vruntime));
    }

    /**
     * update_deadline: once vruntime reaches the deadline, a new slice and deadline, and resched_curr; from 6.12
     * update_curr also reschedules a task running without its protection once it is no longer eligible
     * (did_preempt_short, commit 85e511df3cec).
     */
    @Override
    boolean afterAdvance(LinuxRq rq, LinuxTask t) {
        if (t.vruntime - t.deadline < 0) {
            return params.preemptShort && !t.atParity && rq.curr == t && t.vruntime > rq.avgVruntime();
        }
        t.deadline = t.vruntime + t.toVirtual(slice(t));
        t.atParity = false;
        return true;
    }

    @Override
    void picked(LinuxTask t) {
        super.picked(t);
        t.atParity = true; // set_next_entity: se->vlag = se->deadline (RUN_TO_PARITY's marker)
    }

    /** pick_eevdf (6.6): curr at parity stays; else the eligible task with the earliest deadline. */
    @Override
    LinuxTask pick(LinuxRq rq) {
        long v = rq.avgVruntime();
        LinuxTask curr = rq.curr != null && rq.curr.onRq && rq.curr.vruntime <= v ? rq.curr : null;
        if (params.runToParity && curr != null && curr.atParity) {
            return curr;
        }
        LinuxTask best = null;
        for (LinuxTask t : rq.queued) {
            if (t.vruntime > v) {
                break; // ordered by vruntime: the rest are not eligible either
            }
            if (best == null || t.deadline < best.deadline) {
                best = t;
            }
        }
        if (best == null || (curr != null && curr.deadline < best.deadline)) {
            best = curr;
        }
        if (best == null) {
            // no eligible task (rounding of V): the leftmost
            best = rq.curr != null && rq.curr.onRq ? rq.curr : rq.queued.isEmpty() ? null : rq.queued.first();
        }
        return best;
    }

    /**
     * check_preempt_wakeup_fair: preempt when pick_eevdf would now choose the woken task. From 6.12 with
     * PREEMPT_SHORT a woken task with a shorter slice first cancels the running task's RUN_TO_PARITY protection
     * when do_preempt_short holds (commit 85e511df3cec: "se->vlag = se->deadline + 1"); if another task is
     * picked instead, the running one keeps the CPU until did_preempt_short finds it no longer eligible.
     */
    @Override
    boolean wakeupPreempts(LinuxRq rq, LinuxTask t) {
        if (rq.curr == null || !rq.curr.onRq) {
            return true;
        }
        updateCurr(rq);
        LinuxTask curr = rq.curr;
        if (params.preemptShort && curr.atParity && doPreemptShort(rq, t, curr)) {
            curr.atParity = false;
            shortPreemptions++;
        }
        if (pick(rq) == t) {
            return true;
        }
        if (params.preemptShort && !curr.atParity) {
            armShortCheck(rq, curr);
        }
        return false;
    }

    /**
     * do_preempt_short (6.12): the woken pse has a shorter slice than the running se, is eligible, and either
     * has the earlier deadline or se is no longer eligible.
     */
    boolean doPreemptShort(LinuxRq rq, LinuxTask pse, LinuxTask se) {
        if (slice(pse) >= slice(se)) {
            return false;
        }
        long v = rq.avgVruntime();
        if (pse.vruntime > v) {
            return false;
        }
        return pse.deadline - se.deadline < 0 || se.vruntime > v;
    }

    /** did_preempt_short at the running task's next update_curr: a timer at the time it stops being eligible. */
    private void armShortCheck(LinuxRq rq, LinuxTask curr) {
        if (shortChecks[rq.cpu] != null) {
            shortChecks[rq.cpu].cancel();
        }
        long in = nanosUntilIneligible(rq, curr);
        if (in == Long.MAX_VALUE) {
            return; // nothing queued: update_curr returns before did_preempt_short
        }
        // noticed by update_curr: at the tick without HRTICK (see noticedIn)
        shortChecks[rq.cpu] = ctx.setTimer(ctx.now() + Math.max(1, noticedIn(in)), () -> shortCheck(rq, curr));
    }

    private void shortCheck(LinuxRq rq, LinuxTask curr) {
        shortChecks[rq.cpu] = null;
        if (rq.curr != curr || !curr.onRq || curr.atParity || rq.nr < 2) {
            return; // it was switched out, slept, got a new slice, or runs alone (update_curr returns early)
        }
        updateCurr(rq);
        if (curr.vruntime > rq.avgVruntime()) {
            ctx.tickle(rq.cpu); // resched_curr
        } else {
            armShortCheck(rq, curr);
        }
    }

    /**
     * Wall ns the running curr needs until its vruntime passes the load-weighted mean of the queued tasks, which
     * is when it passes V (entity_eligible over curr and the queue); {@code Long.MAX_VALUE} with nothing queued.
     */
    private static long nanosUntilIneligible(LinuxRq rq, LinuxTask curr) {
        long weights = 0;
        long sum = 0;
        for (LinuxTask q : rq.queued) {
            weights += q.weight;
            sum += (q.vruntime - rq.minVruntime) * q.weight;
        }
        if (weights == 0) {
            return Long.MAX_VALUE;
        }
        long virtualLeft = Math.floorDiv(sum, weights) - (curr.vruntime - rq.minVruntime) + 1;
        return virtualLeft <= 0 ? 0 : curr.toWall(virtualLeft) + 1;
    }

    /**
     * Until vruntime reaches the deadline (the tick's update_deadline, as a timer); from 6.12 with PREEMPT_SHORT a
     * task running without its slice protection (re-picked after a new deadline, or cancelled by a shorter waker)
     * is rescheduled earlier, once it is no longer eligible (update_curr: did_preempt_short).
     */
    @Override
    long runNanos(LinuxRq rq, LinuxTask t) {
        long toDeadline = t.toWall(t.deadline - t.vruntime);
        if (!params.preemptShort || t.atParity || rq.nr < 2 || rq.curr != t) {
            return toDeadline;
        }
        return Math.min(toDeadline, nanosUntilIneligible(rq, t));
    }

    @Override
    public Map<String, Long> statistics() {
        Map<String, Long> out = new LinkedHashMap<>();
        out.put(STAT_SWITCHES_IN, switchesIn);
        out.put(STAT_SHORT_PREEMPTIONS, shortPreemptions);
        out.put(STAT_DELAYED_DEQUEUES, delayedDequeues);
        return out;
    }

    @Override
    public Map<String, Long> statistics(Vcpu v) {
        LinuxTask t = task(v);
        return t == null ? Map.of() : Map.of(STAT_SWITCHES_IN, t.switchesIn);
    }

    /** yield_task_fair (6.6): the deadline moves one slice out. */
    @Override
    void yieldTask(LinuxRq rq, LinuxTask t) {
        if (rq.root().hNr == 1) {
            return; // rq->nr_running == 1
        }
        updateCurr(rq);
        t.deadline += t.toVirtual(slice(t));
        t.atParity = false;
    }

    /**
     * reweight_entity (6.6) for a group entity: a queued one keeps its deadline's distance in wall time, a dequeued
     * one its lag's (se->vlag = div_s64(se->vlag * old_weight, weight)); its vruntime does not move.
     */
    @Override
    void groupReweighted(LinuxTask gse, int oldWeight, int newWeight) {
        if (gse.onRq) {
            gse.deadline = gse.vruntime + (gse.deadline - gse.vruntime) * oldWeight / newWeight;
        } else {
            gse.vlag = gse.vlag * oldWeight / newWeight;
        }
    }

    /** reweight_entity: the deadline keeps its distance in wall time. */
    @Override
    void reweighted(LinuxTask t, int oldWeight, int newWeight) {
        t.deadline = t.vruntime + (t.deadline - t.vruntime) * oldWeight / newWeight;
        t.vlag = t.vlag * oldWeight / newWeight;
    }
}
