package io.schedlab.engine.sim;

import io.schedlab.engine.policies.SchedulerPolicy;

/**
 * The host Linux scheduler's path under KVM (kernel/sched/core.c __schedule(): pick_next_task, whose
 * class code puts prev back on its run queue, put_prev_task; then context_switch and finish_task_switch).
 * Linux has no context_saved step: nothing runs under a run-queue lock after the switch, so a switch costs
 * the decision and the switch itself only. A task moved off by an affinity change
 * (__set_cpus_allowed_ptr -> migration_cpu_stop -> move_queued_task) is woken where allowed right after it
 * left its CPU.
 */
final class LinuxSchedulePath extends SchedulePath {

    LinuxSchedulePath(Simulator sim, SchedulerPolicy policy) {
        super(sim, policy);
    }

    @Override
    long afterSwitch(VcpuRun prevRun, int p, long t) {
        if (prevRun.migrating) {
            finishMigration(prevRun);
        }
        return t;
    }
}
