package io.schedlab.engine.policies.coresched;

import io.schedlab.engine.model.Vcpu;
import io.schedlab.engine.model.VcpuState;
import io.schedlab.engine.model.VcpuStateMachine;

/**
 * A scheduling unit (Xen's struct sched_unit, xen/common/sched/core.c sched_alloc_unit): the vCPUs
 * of one domain whose ids share {@code id / granularity}; member k runs on the resource's k-th pCPU
 * (unit2vcpu_cpu). {@link #vcpu} is the unit as the inner policy sees it: its state is RUNNING while
 * it is a resource's current unit, RUNNABLE while any member is runnable, else BLOCKED. Core scheduling is
 * the schedule path of its inner policy (in Xen it lives in core.c), so this class alone changes a unit's
 * state; it never touches a member's.
 */
final class SchedUnit {
    final Vcpu vcpu;
    /** Member vCPUs by index in the unit; null where the domain has no such vCPU. */
    final Vcpu[] members;
    int liveMembers;
    long runningSince;
    /** Switched away from, context_saved not yet called (the rendezvous is under way). */
    boolean saving;
    /** Went to sleep while saving: the inner policy hears of it at context_saved. */
    boolean sleepDeferred;
    boolean removeAfterSave;
    /** Woken by pickCpu (placed by the inner policy); the inner wake follows in wake(). */
    boolean needsInnerWake;

    SchedUnit(Vcpu vcpu, Vcpu[] members) {
        this.vcpu = vcpu;
        this.members = members;
        for (Vcpu m : members) {
            if (m != null) {
                liveMembers++;
            }
        }
    }

    /** The unit's own runstate changes (the inner policy reads it as a vCPU's). */
    void moveTo(VcpuState next) {
        VcpuStateMachine.move(vcpu, next);
    }

    /** The unit starts running on {@code resource} at {@code now}. */
    void startedOn(int resource, long now) {
        moveTo(VcpuState.RUNNING);
        vcpu.processor = resource;
        runningSince = now;
    }

    /** The unit was switched away from: still runnable if it was running, and saving until the rendezvous ends. */
    void switchedAway() {
        if (vcpu.state == VcpuState.RUNNING) {
            moveTo(VcpuState.RUNNABLE);
        }
        saving = true;
    }

    /** Xen unit_runnable(): any member runnable. */
    boolean anyMemberRunnable() {
        for (Vcpu m : members) {
            if (m != null && m.isRunnable()) {
                return true;
            }
        }
        return false;
    }

    boolean isUnitRunnable() {
        return vcpu.state == VcpuState.RUNNING || vcpu.state == VcpuState.RUNNABLE;
    }
}
