package io.schedlab.engine.sim;

import io.schedlab.engine.recording.LatencyRecorder;
import io.schedlab.engine.model.Vm;
import io.schedlab.engine.spec.VmSpec;
import io.schedlab.engine.workloads.Workload;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Simulator state of one VM: its guest kernel's ready queue, threads, spinlocks, mutexes and semaphores, workload and timings. */
final class VmRun {
    final Vm vm;
    final VmSpec spec;
    final Workload workload;
    /** The policy's per-VM parameters (normalized; changed by set-sched-params). */
    io.schedlab.engine.params.Params schedParams;
    final List<VcpuRun> vcpus = new ArrayList<>();
    /** Threads ready to run but on no vCPU, FIFO (a global guest run queue). */
    final ArrayDeque<GuestThreadRun> ready = new ArrayDeque<>();
    /** Live (not exited) threads. */
    final List<GuestThreadRun> threads = new ArrayList<>();
    /** Locks with ids 0..SMALL_LOCKS-1, by id (no boxing or hashing on the hot acquire/release path). */
    private final GuestLock[] smallLocks = new GuestLock[SMALL_LOCKS];
    /** Other lock ids -> lock; looked up only, never iterated (iteration order would not be deterministic). */
    private final Map<Integer, GuestLock> otherLocks = new HashMap<>();
    private static final int SMALL_LOCKS = 64;
    /** Blocking mutexes by id (their own namespace); looked up only, never iterated. */
    private final Map<Integer, GuestLock> mutexes = new HashMap<>();
    /**
     * Counting semaphores by id (their own namespace, shared with the host thread group that serves this VM, see
     * {@link SemaphoreSpaces}); looked up only, never iterated.
     */
    private final Map<Integer, GuestSemaphore> semaphores;
    /** True when the semaphores are this run's alone (no serving group shares them). */
    private final boolean ownsSemaphores;
    final LatencyRecorder wakeLatency = LatencyRecorder.compact();
    long startedAt = -1;
    long endedAt = -1;
    long completedAt = -1;
    boolean countedFinite;

    VmRun(Vm vm, VmSpec spec, Workload workload) {
        this(vm, spec, workload, new HashMap<>(), true);
    }

    /** A run whose semaphores are {@code semaphores} (shared unless {@code owns}). */
    VmRun(Vm vm, VmSpec spec, Workload workload, Map<Integer, GuestSemaphore> semaphores, boolean owns) {
        this.vm = vm;
        this.spec = spec;
        this.workload = workload;
        this.semaphores = semaphores;
        this.ownsSemaphores = owns;
    }

    /** The lock with this id, created on first use. */
    GuestLock lock(int id) {
        if (id >= 0 && id < SMALL_LOCKS) {
            GuestLock lock = smallLocks[id];
            if (lock == null) {
                lock = new GuestLock(workload.testAndSetSpinlocks());
                smallLocks[id] = lock;
            }
            return lock;
        }
        return otherLocks.computeIfAbsent(id, k -> new GuestLock(workload.testAndSetSpinlocks()));
    }

    /** The lock with this id, or null if it was never used. */
    GuestLock existingLock(int id) {
        return id >= 0 && id < SMALL_LOCKS ? smallLocks[id] : otherLocks.get(id);
    }

    /** The blocking mutex with this id, created on first use. */
    GuestLock mutex(int id) {
        return mutexes.computeIfAbsent(id, k -> new GuestLock());
    }

    /** The counting semaphore with this id, created (with no units) on first use. */
    GuestSemaphore semaphore(int id) {
        return semaphores.computeIfAbsent(id, k -> new GuestSemaphore());
    }

    /** Drops every lock, mutex and semaphore of its own (VM shutdown; shared semaphores stay with the others). */
    void clearLocks() {
        java.util.Arrays.fill(smallLocks, null);
        otherLocks.clear();
        mutexes.clear();
        if (ownsSemaphores) {
            semaphores.clear();
        }
    }
}
