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
    /** Per from-state ordinal, a bit per legal to-state ordinal (checked on every switch: no collection lookup). */
    private static final int[] LEGAL = legalEdges();

    private VcpuStateMachine() {
    }

    private static int[] legalEdges() {
        int[] to = new int[VcpuState.values().length];
        to[VcpuState.OFFLINE.ordinal()] = bits(VcpuState.BLOCKED);
        to[VcpuState.BLOCKED.ordinal()] = bits(VcpuState.RUNNABLE, VcpuState.OFFLINE);
        to[VcpuState.RUNNABLE.ordinal()] = bits(VcpuState.RUNNING, VcpuState.BLOCKED);
        to[VcpuState.RUNNING.ordinal()] = bits(VcpuState.RUNNABLE, VcpuState.BLOCKED);
        return to;
    }

    private static int bits(VcpuState... states) {
        int b = 0;
        for (VcpuState s : states) {
            b |= 1 << s.ordinal();
        }
        return b;
    }

    /** The states {@code from} may change to. */
    public static Set<VcpuState> successors(VcpuState from) {
        EnumSet<VcpuState> out = EnumSet.noneOf(VcpuState.class);
        for (VcpuState to : VcpuState.values()) {
            if (isLegal(from, to)) {
                out.add(to);
            }
        }
        return out;
    }

    /** True when a vCPU in {@code from} may change to {@code to}. */
    public static boolean isLegal(VcpuState from, VcpuState to) {
        return (LEGAL[from.ordinal()] & (1 << to.ordinal())) != 0;
    }

    /** Changes v's state to {@code to}; throws IllegalStateException if that is not a legal transition. */
    public static void move(Vcpu v, VcpuState to) {
        VcpuState from = v.state;
        if ((LEGAL[from.ordinal()] & (1 << to.ordinal())) == 0) {
            throw new IllegalStateException("vCPU " + v + ": illegal state transition " + from + " -> " + to);
        }
        v.state = to;
    }
}
