package io.schedlab.engine.policies.linux;

import io.schedlab.engine.params.ParameterSpec;
import io.schedlab.engine.registry.PolicyDescriptor;
import java.util.ArrayList;
import java.util.List;

/**
 * Linux CFS (kernel/sched/fair.c up to 6.5) as KVM's host scheduler: the leftmost vruntime runs; a task
 * runs for its share of the scheduling period (sched_slice); a waking task preempts when it is more than
 * the wake-up granularity behind; sleepers are placed half a latency behind min_vruntime
 * (GENTLE_FAIR_SLEEPERS), new tasks a slice after it (START_DEBIT); yield skips the task once (skip
 * buddy), yield_to makes the target the next buddy.
 */
public final class CfsPolicy extends LinuxFairPolicy {
    public static final String NAME = "cfs";

    CfsPolicy(LinuxParams params) {
        super(params);
    }

    public static PolicyDescriptor descriptor() {
        List<ParameterSpec> specs = new ArrayList<>();
        specs.add(ParameterSpec.choice(LinuxParams.KERNEL_VERSION, "6.5", List.of("4.19", "5.4", "5.10", "5.15", "6.1", "6.5"),
                "the Linux release whose CFS constants apply (imbalance_pct and busy_factor changed in 5.10)",
                "torvalds/linux kernel/sched/fair.c and topology.c at that tag; EEVDF replaced CFS in 6.6"));
        specs.add(ParameterSpec.integer("latencyNs", 6_000_000, 100_000, 1_000_000_000L, "ns",
                "sysctl_sched_latency before scaling: the period in which every runnable task runs once",
                "kernel/sched/fair.c sysctl_sched_latency = 6000000ULL"));
        specs.add(ParameterSpec.integer("minGranularityNs", 750_000, 10_000, 1_000_000_000L, "ns",
                "sysctl_sched_min_granularity before scaling: the shortest slice",
                "kernel/sched/fair.c sysctl_sched_min_granularity = 750000ULL"));
        specs.add(ParameterSpec.integer("wakeupGranularityNs", 1_000_000, 0, 1_000_000_000L, "ns",
                "sysctl_sched_wakeup_granularity before scaling: how far behind a waking task must be to preempt",
                "kernel/sched/fair.c sysctl_sched_wakeup_granularity = 1000000UL"));
        specs.add(ParameterSpec.integer("nrLatency", 8, 1, 1000, "tasks",
                "sched_nr_latency: beyond this many tasks the period is nr x min_granularity",
                "kernel/sched/fair.c sched_nr_latency = 8"));
        specs.add(ParameterSpec.bool("gentleFairSleepers", true,
                "place a waking task at most half a latency behind min_vruntime (else a full latency)",
                "kernel/sched/features.h SCHED_FEAT(GENTLE_FAIR_SLEEPERS, true)"));
        specs.add(ParameterSpec.bool("startDebit", true, "a new task starts one vslice after min_vruntime",
                "kernel/sched/features.h SCHED_FEAT(START_DEBIT, true)"));
        specs.addAll(LinuxParams.common());
        return new PolicyDescriptor(NAME, "Linux CFS (<= 6.5) host scheduler under KVM: vruntime, weights from nice "
                + "and cgroup cpu.weight, wake-up preemption, SMT/MC/NUMA load balancing", List.copyOf(specs),
                p -> new CfsPolicy(new LinuxParams(p, false)), "kvm")
                .withSchedParams(List.of(TaskGroups.vmSpec()), List.of(), TaskGroups::check);
    }

    long latency() {
        return params.latencyNanos * factor;
    }

    long minGranularity() {
        return params.minGranularityNanos * factor;
    }

    /** sched_slice: t's share of __sched_period(nr_running) by weight (counting t when not yet queued). */
    long slice(LinuxRq rq, LinuxTask t) {
        int nr = rq.root().hNr + (t.onRq ? 0 : 1); // ALT_PERIOD: rq->cfs.h_nr_running
        long load = rq.load + (t.onRq ? 0 : t.weight);
        long period = nr > params.nrLatency ? nr * minGranularity() : latency();
        return load == 0 ? period : period * t.weight / load;
    }

    @Override
    void place(LinuxRq rq, LinuxTask t, boolean initial) {
        long vruntime = rq.minVruntime;
        if (initial) {
            if (params.startDebit) {
                vruntime += t.toVirtual(slice(rq, t)); // sched_vslice
            }
            t.vruntime = vruntime;
            return;
        }
        long thresh = latency();
        if (params.gentleFairSleepers) {
            thresh >>= 1;
        }
        t.vruntime = Math.max(t.vruntime, vruntime - thresh); // never gain time by being placed backwards
    }

    @Override
    void renormalize(LinuxTask t, LinuxRq src, LinuxRq dst) {
        t.vruntime = t.vruntime - src.minVruntime + dst.minVruntime; // migrate_task_rq_fair / enqueue_entity
    }

    /** pick_next_entity (6.5): leftmost, skipping a yielder if the second is close enough, or the next buddy. */
    @Override
    LinuxTask pick(LinuxRq rq) {
        LinuxTask curr = rq.curr != null && rq.curr.onRq ? rq.curr : null;
        LinuxTask left = rq.queued.isEmpty() ? null : rq.queued.first();
        if (left == null || (curr != null && LinuxRq.BY_VRUNTIME.compare(curr, left) < 0)) {
            left = curr;
        }
        if (left == null) {
            return null;
        }
        LinuxTask se = left;
        if (rq.skip == se) {
            // the second-leftmost of curr and the queued tasks
            LinuxTask second = se == curr ? (rq.queued.isEmpty() ? null : rq.queued.first()) : rq.queued.higher(se);
            if (curr != null && curr != se && (second == null || LinuxRq.BY_VRUNTIME.compare(curr, second) < 0)) {
                second = curr;
            }
            if (second != null && wakeupPreemptEntity(second, left) < 1) {
                se = second;
            }
        }
        if (rq.next != null && rq.next.onRq && rq.next.rq == rq && wakeupPreemptEntity(rq.next, left) < 1) {
            se = rq.next;
        }
        return se;
    }

    /** wakeup_preempt_entity: 1 when curr is more than se's wake-up granularity ahead of se, -1 when not ahead. */
    private int wakeupPreemptEntity(LinuxTask curr, LinuxTask se) {
        long vdiff = curr.vruntime - se.vruntime;
        if (vdiff <= 0) {
            return -1;
        }
        long gran = se.toVirtual(params.wakeupGranularityNanos * factor); // wakeup_gran
        return vdiff > gran ? 1 : 0;
    }

    @Override
    boolean wakeupPreempts(LinuxRq rq, LinuxTask t) {
        return rq.curr == null || !rq.curr.onRq || wakeupPreemptEntity(rq.curr, t) == 1;
    }

    /** check_preempt_tick: resched once the task ran its ideal runtime since it was picked. */
    @Override
    long runNanos(LinuxRq rq, LinuxTask t) {
        return slice(rq, t) - (t.sumExec - t.prevSumExec);
    }

    @Override
    void yieldTask(LinuxRq rq, LinuxTask t) {
        if (rq.root().hNr == 1) {
            return; // rq->nr_running == 1
        }
        updateCurr(rq);
        rq.skip = t; // set_skip_buddy
    }
}
