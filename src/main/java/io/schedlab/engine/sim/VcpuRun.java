package io.schedlab.engine.sim;

import io.schedlab.engine.recording.LatencyRecorder;
import io.schedlab.engine.model.Vcpu;
import io.schedlab.engine.model.VcpuState;

/** Simulator state of one vCPU: its guest thread, current run, progress rate and accounting. */
final class VcpuRun {
    final Vcpu v;
    final VmRun vm;
    /** The VM's memory NUMA node (fixed), kept here for the progress rate. */
    final int memoryNode;
    /** The policy's effective per-vCPU parameters (descriptor defaults, VM-level, own; changed by set-sched-params). */
    io.schedlab.engine.params.Params schedParams;
    GuestThreadRun thread;
    /** TLB-shootdown IPIs delivered to it and not yet handled (null until its first). */
    TlbShootdowns.Pending flushes;
    /** When the guest next needs attention on this vCPU (NEVER = nothing planned). */
    long planDeadline = Simulator.NEVER;
    /** Time and id of the earliest queued plan event; later deadlines reuse it (re-armed when it fires). */
    long planPendingAt = Simulator.NEVER;
    int planPushId;
    /** When the current run started (after the switch overhead). */
    long runStart;
    /** When it was switched in (Xen's runstate entry time); unlike runStart not moved by decisions that keep it. */
    long runningSince;
    /** runStart + the cache refill's time: full-speed progress from here, the refill fraction of it before. */
    long progressFrom;
    long lastSettle;
    double rate = 1.0;
    int lastPcpu = -1;
    /** True while Xen's _VPF_migrating is set: off the CPU only to move, not blocked. */
    boolean migrating;
    /** Last time its hard affinity changed (a pCPU allowed since then cannot have been idle for it longer). */
    long affinityChangedAt;

    VcpuState acctState = VcpuState.OFFLINE;
    long stateSince;
    long runnableSince;
    int countedRq = -1;
    long cpuNs;
    long runnableNs;
    long blockedNs;
    long spinNs;
    final PcpuTimes timeOnPcpu;
    long migSameCore;
    long migSameSocket;
    long migCross;
    final LatencyRecorder wakeLatency = LatencyRecorder.compact();
    /** NUMA node whose stream count includes this vCPU, or -1. */
    int streamNode = -1;
    /** Whether its stream is of node-local memory on a pCPU of another node (counted on the links). */
    boolean streamRemote;

    VcpuRun(Vcpu v, VmRun vm, int hostPcpus) {
        this.v = v;
        this.timeOnPcpu = new PcpuTimes(hostPcpus);
        this.vm = vm;
        this.memoryNode = vm.vm.memoryNode;
    }

    /** Closes the interval spent in the accounted state and enters {@code next} at {@code at}. */
    void account(VcpuState next, long at) {
        long dt = Math.max(0, at - stateSince);
        if (acctState == VcpuState.RUNNABLE) { // identity tests: no enum switch table to load
            runnableNs += dt;
        } else if (acctState == VcpuState.BLOCKED) {
            blockedNs += dt;
        }
        acctState = next;
        stateSince = Math.max(stateSince, at);
    }
}
