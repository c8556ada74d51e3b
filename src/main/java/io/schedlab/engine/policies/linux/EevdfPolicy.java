package io.schedlab.engine.policies.linux;

import io.schedlab.engine.params.ParameterSpec;
import io.schedlab.engine.registry.PolicyDescriptor;
import java.util.ArrayList;
import java.util.List;

/**
 * Linux EEVDF (kernel/sched/fair.c from 6.6) as KVM's host scheduler: among the eligible tasks (lag >= 0,
 * i.e. vruntime <= the load-weighted average V) the earliest virtual deadline runs; a deadline is
 * vruntime + slice x 1024 / weight, renewed when the task's vruntime reaches it (update_deadline);
 * RUN_TO_PARITY keeps the current task until it reaches its deadline or loses eligibility; a sleeper
 * keeps its lag (clamped to one slice-or-tick, update_entity_lag) and is placed with it (PLACE_LAG);
 * a new task gets half a slice of deadline (PLACE_DEADLINE_INITIAL); yield pushes the deadline a slice out.
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
        specs.addAll(LinuxParams.common());
        return new PolicyDescriptor(NAME, "Linux EEVDF (6.6+) host scheduler under KVM: eligibility by lag, earliest "
                + "virtual deadline, RUN_TO_PARITY, weights from nice and cgroup cpu.weight, SMT/MC/NUMA load balancing",
                List.copyOf(specs), p -> new EevdfPolicy(new LinuxParams(p, true)), "kvm");
    }

    /** se->slice: the base slice scaled by sysctl_sched_tunable_scaling. */
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
        long vslice = t.toVirtual(slice());
        if (params.placeDeadlineInitial && initial) {
            vslice /= 2;
        }
        t.deadline = t.vruntime + vslice;
        t.atParity = false;
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
        long limit = t.toVirtual(Math.max(2 * slice(), params.tickNanos));
        t.vlag = Math.max(-limit, Math.min(limit, rq.avgVruntime() - t.vruntime));
    }

    /** update_deadline: once vruntime reaches the deadline, a new slice and deadline. */
    @Override
    void afterAdvance(LinuxTask t) {
        if (t.vruntime - t.deadline < 0) {
            return;
        }
        t.deadline = t.vruntime + t.toVirtual(slice());
        t.atParity = false;
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

    /** check_preempt_wakeup_fair (6.6): preempt when pick_eevdf would now choose the woken task. */
    @Override
    boolean wakeupPreempts(LinuxRq rq, LinuxTask t) {
        if (rq.curr == null || !rq.curr.onRq) {
            return true;
        }
        updateCurr(rq);
        return pick(rq) == t;
    }

    /** Until vruntime reaches the deadline (the tick's update_deadline, as a timer). */
    @Override
    long runNanos(LinuxRq rq, LinuxTask t) {
        return t.toWall(t.deadline - t.vruntime);
    }

    /** yield_task_fair (6.6): the deadline moves one slice out. */
    @Override
    void yieldTask(LinuxRq rq, LinuxTask t) {
        if (rq.nr == 1) {
            return;
        }
        updateCurr(rq);
        t.deadline += t.toVirtual(slice());
        t.atParity = false;
    }

    /** reweight_entity: the deadline keeps its distance in wall time. */
    @Override
    void reweighted(LinuxTask t, int oldWeight, int newWeight) {
        t.deadline = t.vruntime + (t.deadline - t.vruntime) * oldWeight / newWeight;
        t.vlag = t.vlag * oldWeight / newWeight;
    }
}
