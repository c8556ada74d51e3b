package io.schedlab.engine.sim;

import io.schedlab.engine.metrics.LatencyRecorder;
import io.schedlab.engine.model.Vm;
import io.schedlab.engine.spec.VmSpec;
import io.schedlab.engine.workloads.Workload;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Simulator state of one VM: its guest kernel's ready queue, threads and spinlocks, workload and timings. */
final class VmRun {
    final Vm vm;
    final VmSpec spec;
    final Workload workload;
    final List<VcpuRun> vcpus = new ArrayList<>();
    /** Threads ready to run but on no vCPU, FIFO (a global guest run queue). */
    final ArrayDeque<GuestThreadRun> ready = new ArrayDeque<>();
    /** Live (not exited) threads. */
    final List<GuestThreadRun> threads = new ArrayList<>();
    /** Lock id -> lock; looked up only, never iterated (iteration order would not be deterministic). */
    final Map<Integer, GuestLock> locks = new HashMap<>();
    final LatencyRecorder wakeLatency = LatencyRecorder.compact();
    long startedAt = -1;
    long endedAt = -1;
    long completedAt = -1;
    boolean countedFinite;

    VmRun(Vm vm, VmSpec spec, Workload workload) {
        this.vm = vm;
        this.spec = spec;
        this.workload = workload;
    }

    GuestLock lock(int id) {
        return locks.computeIfAbsent(id, k -> new GuestLock());
    }
}
