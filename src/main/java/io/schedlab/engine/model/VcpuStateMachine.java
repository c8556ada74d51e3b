package io.schedlab.engine.model;

import java.util.EnumSet;
import java.util.Set;

/**
 * The legal changes of a vCPU's run state and the only writer of {@link Vcpu#state} (checked by
 * {@code VcpuStateMachineTest}). The states are Xen's runstates (xen/include/public/vcpu.h
 * RUNSTATE_running/runnable/blocked/offline, changed by xen/common/sched/core.c
 * vcpu_runstate_change); the edges are the ones the schedule path takes:
 * <ul>
 * <li>OFFLINE -> BLOCKED: a new vCPU (sched_init_vcpu), woken separately;</li>
 * <li>BLOCKED -> RUNNABLE: vcpu_wake (also vcpu_migrate_finish after a move);</li>
 * <li>RUNNABLE -> RUNNING: switched in by schedule();</li>
 * <li>RUNNING -> RUNNABLE: switched out still runnable (preempted, yielded);</li>
 * <li>RUNNING -> BLOCKED and RUNNABLE -> BLOCKED: SCHEDOP_block, or vcpu_sleep for a move or a shutdown;</li>
 * <li>BLOCKED -> OFFLINE: removed with its domain (sched_destroy_vcpu).</li>
 * </ul>
 * Anything else is an {@link IllegalStateException} naming the vCPU, from and to.
 */
public final class VcpuStateMachine {
    private static final EnumSet<VcpuState>[] LEGAL = legalEdges();

    private VcpuStateMachine() {
    }

    @SuppressWarnings("unchecked")
    private static EnumSet<VcpuState>[] legalEdges() {
        EnumSet<VcpuState>[] to = new EnumSet[VcpuState.values().length];
        to[VcpuState.OFFLINE.ordinal()] = EnumSet.of(VcpuState.BLOCKED);
        to[VcpuState.BLOCKED.ordinal()] = EnumSet.of(VcpuState.RUNNABLE, VcpuState.OFFLINE);
        to[VcpuState.RUNNABLE.ordinal()] = EnumSet.of(VcpuState.RUNNING, VcpuState.BLOCKED);
        to[VcpuState.RUNNING.ordinal()] = EnumSet.of(VcpuState.RUNNABLE, VcpuState.BLOCKED);
        return to;
    }

    /** The states {@code from} may change to. */
    public static Set<VcpuState> successors(VcpuState from) {
        return java.util.Collections.unmodifiableSet(LEGAL[from.ordinal()]);
    }

    /** True when a vCPU in {@code from} may change to {@code to}. */
    public static boolean isLegal(VcpuState from, VcpuState to) {
        return LEGAL[from.ordinal()].contains(to);
    }

    /** Changes v's state to {@code to}; throws IllegalStateException if that is not a legal transition. */
    public static void move(Vcpu v, VcpuState to) {
        VcpuState from = v.state;
        if (!LEGAL[from.ordinal()].contains(to)) {
            throw new IllegalStateException("vCPU " + v + ": illegal state transition " + from + " -> " + to);
        }
        v.state = to;
    }
}
