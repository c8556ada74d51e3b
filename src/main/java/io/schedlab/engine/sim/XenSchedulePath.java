package io.schedlab.engine.sim;

import io.schedlab.engine.model.Vcpu;
import io.schedlab.engine.policies.SchedulerPolicy;

/**
 * Xen's schedule path (xen/common/sched/core.c at c447b7308b: schedule(), sched_context_switch(),
 * sched_context_switched() -> vcpu_context_saved() -> unit_context_saved()): after a switch the policy's
 * context_saved(prev) runs under prev's run-queue lock, then sched_unit_migrate_finish for a vCPU moved off
 * by an affinity change. Policies that report their lock work run context_saved as its own event at the end
 * of the switch ({@link DeferredSaves}); the others hold the lock for it inline.
 */
final class XenSchedulePath extends SchedulePath {
    /** context_saved steps still to run at the end of a switch (policies that report lock work). */
    private final DeferredSaves deferredSaves;

    XenSchedulePath(Simulator sim, SchedulerPolicy policy) {
        super(sim, policy);
        deferredSaves = new DeferredSaves(sim.nP());
    }

    @Override
    boolean deferSchedule(int p) {
        if (deferredSaves.isPending(p)) {
            deferredSaves.requestReschedule(p); // p is still inside context_saved of its last switch
            return true;
        }
        return false;
    }

    @Override
    long afterSwitch(VcpuRun prevRun, int p, long t) {
        if (locks.perWork()) {
            deferredSaves.defer(p, prevRun); // its own step at the end of the switch: it queues for the lock
            sim.push(t, Simulator.EV_CONTEXT_SAVED, p, 0);
            return t;
        }
        return contextSaved(prevRun, t);
    }

    /**
     * The deferred context_saved of p's last switch: its wait and hold are p's overhead, so the vCPU switched
     * in starts after it (as in Xen, where context_saved runs on p before it returns to the guest).
     */
    @Override
    void switchTailEvent(int p) {
        VcpuRun prevRun = deferredSaves.take(p);
        long end = contextSaved(prevRun, sim.now());
        switchTailEnded(p, sim.now(), end);
        if (deferredSaves.takeReschedule(p)) {
            schedule(p, false);
        }
    }

    @Override
    boolean rescheduleAfterSwitchTail(int p) {
        return deferredSaves.rescheduleRequested(p);
    }

    /** context_saved(prev) arriving at {@code t} under prev's lock, then the migration's end; returns when it ends. */
    private long contextSaved(VcpuRun prevRun, long t) {
        Vcpu prev = prevRun.v;
        int savedLock = lockOf[prev.processor];
        if (locks.perWork()) {
            takeLockWork();
        }
        policy.contextSaved(prev);
        long hold = locks.contextSavedHold(locks.perWork() ? takeLockWork() : 0);
        long wait = locks.acquire(savedLock, t, hold);
        latencies.contextSaved(wait + hold);
        if (prevRun.migrating) {
            finishMigration(prevRun);
        }
        return t + wait + hold;
    }
}
