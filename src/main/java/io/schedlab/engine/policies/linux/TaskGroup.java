package io.schedlab.engine.policies.linux;

import java.util.ArrayList;
import java.util.List;

/**
 * A cgroup with the cpu controller directly under the root (struct task_group, kernel/sched/sched.h at v6.6): on
 * every CPU a run queue of its tasks and the group entity that queues that run queue on the CPU's root run queue
 * (alloc_fair_sched_group, init_tg_cfs_entry). The group's shares are divided among its per-CPU entities in
 * proportion to the load each CPU's run queue carries (calc_group_shares).
 */
final class TaskGroup {
    /**
     * kernel/sched/sched.h MIN_SHARES (1 << 1): the least weight a group entity gets (calc_group_shares clamps to
     * [MIN_SHARES, tg->shares]).
     */
    static final long MIN_SHARES = 2;

    final String name;
    /**
     * tg->shares: cpu.weight 100 (cgroup v2's CGROUP_WEIGHT_DFL, the weight systemd and libvirt leave on
     * machine.slice) is sched_weight_from_cgroup(100) = 1024, a nice-0 task's weight.
     */
    final long shares = NiceWeights.NICE_0_LOAD;
    /** Per CPU: the group's run queue (tg->cfs_rq[cpu]) and its entity on the root run queue (tg->se[cpu]). */
    final LinuxRq[] rqs;
    final LinuxTask[] entities;
    /** The group's tasks, in the order they were added (their PELT averages make up tg->load_avg). */
    final List<LinuxTask> members = new ArrayList<>();

    TaskGroup(String name, int index, LinuxRq[] roots) {
        this.name = name;
        rqs = new LinuxRq[roots.length];
        entities = new LinuxTask[roots.length];
        for (int cpu = 0; cpu < roots.length; cpu++) {
            rqs[cpu] = new LinuxRq(cpu);
            // negative ids: never equal to a vCPU's uid in the timeline's tie-break
            entities[cpu] = new LinuxTask(-1 - (index * roots.length + cpu), (int) shares, roots[cpu], rqs[cpu]);
            rqs[cpu].owner = entities[cpu];
            rqs[cpu].tg = this;
        }
    }

    /**
     * calc_group_shares (kernel/sched/fair.c at v6.6): the weight of the group's entity on {@code cpu}, tg->shares x
     * load / tg_weight, where load is max(the run queue's load.weight, its load_avg) and tg_weight is the group's
     * load_avg over every CPU with this CPU's contribution replaced by load; clamped to [MIN_SHARES, tg->shares].
     * load_avg here is the PELT load of the tasks last queued on each CPU, sleeping ones decaying
     * (cfs_rq->avg.load_avg keeps a blocked task's load until it decays).
     */
    long sharesOn(int cpu, long now) {
        long local = 0;
        long all = 0;
        for (LinuxTask t : members) {
            long avg = t.loadAvg(now);
            all += avg;
            if (t.rq == rqs[cpu]) {
                local += avg;
            }
        }
        long load = Math.max(rqs[cpu].load, local);
        long tgWeight = all - local + load;
        long s = tgWeight == 0 ? shares : shares * load / tgWeight;
        return Math.max(MIN_SHARES, Math.min(shares, s));
    }
}
