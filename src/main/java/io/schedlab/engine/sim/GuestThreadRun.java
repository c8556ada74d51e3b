package io.schedlab.engine.sim;

import io.schedlab.engine.workloads.GuestThread;

/** The guest kernel's view of one guest thread: where it is, what its current phase needs, and its lock state. */
final class GuestThreadRun {
    /** Where the thread is. */
    static final int READY = 0, ON_VCPU = 1, SLEEPING = 2, DEAD = 3, MUTEX_WAIT = 4, SEMAPHORE_WAIT = 5;
    /** What its current phase needs while on a vCPU. */
    static final int ADVANCE = 0, COMPUTE = 1, SPIN = 2;

    final int id;
    /** Bumped when the slot is reused, so stale wake events are ignored. */
    int version;
    VmRun vm;
    GuestThread program;
    int where;
    int mode;
    /** Nominal work (ns) left in the current Compute phase. */
    double remaining;
    boolean memoryStream;
    /** Its current Compute phase runs in guest kernel mode (a system call's work). */
    boolean kernel;
    VcpuRun on;
    VcpuRun last;
    /** Time it became ready after a sleep (for wake-up latency), or -1. */
    long readyAt = -1;
    int locksHeld;
    /** The spinlock it spins for (mode SPIN), or null. */
    GuestLock spinningFor;
    /** CPU time used since it was put on its vCPU (guest time slice). */
    long sliceUsed;
    /** Position in its VM's thread list (for O(1) removal). */
    int indexInVm;

    GuestThreadRun(int id) {
        this.id = id;
    }
}
