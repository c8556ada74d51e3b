package io.schedlab.engine.model;

import java.util.BitSet;

/**
 * A virtual CPU. {@link #processor} is the pCPU it is assigned to or last ran on (Xen's
 * {@code v->processor}); the simulator sets it when the vCPU starts running there, a policy
 * sets it when it queues the vCPU on another pCPU. Affinities are pCPU id sets; an empty soft
 * affinity means "none". {@link #policyData} holds the policy's per-vCPU state.
 */
public final class Vcpu {
    public final Vm vm;
    public final int index;
    /** Unique across the run, in creation order: use it (not hash codes) for deterministic ordering. */
    public final int uid;

    /** Run state; read freely, changed only through {@link VcpuStateMachine#move}. */
    public VcpuState state = VcpuState.OFFLINE;
    public int processor;
    public final BitSet hardAffinity = new BitSet();
    public final BitSet softAffinity = new BitSet();
    /** Policy-private state. */
    public Object policyData;

    public Vcpu(Vm vm, int index, int uid, int processor) {
        this.vm = vm;
        this.index = index;
        this.uid = uid;
        this.processor = processor;
    }

    public boolean allowedOn(int pcpu) {
        return hardAffinity.get(pcpu);
    }

    /** True when soft affinity is set and is a subset-intersecting preference (Xen: has_soft_affinity). */
    public boolean hasSoftAffinity() {
        return !softAffinity.isEmpty() && !hardAffinity.equals(softAffinity) && softAffinity.intersects(hardAffinity);
    }

    public boolean isRunnable() {
        return state == VcpuState.RUNNABLE || state == VcpuState.RUNNING;
    }

    @Override
    public String toString() {
        return vm.name + ".v" + index;
    }
}
