package io.schedlab.engine.workloads;

/** One step of a guest thread: compute, sleep, take or release a spinlock or a mutex, or exit. */
public sealed interface Phase {

    /**
     * Run for {@code workNanos} of CPU time at nominal speed. With {@code memoryStream} the
     * thread streams memory: its progress rate is scaled by its share of the NUMA node's
     * bandwidth and by remote access (see the cost model); without it only SMT and cold caches slow it.
     */
    record Compute(long workNanos, boolean memoryStream) implements Phase {
    }

    /** Block for {@code nanos} (I/O, think time); the thread leaves its vCPU. */
    record Sleep(long nanos) implements Phase {
    }

    /** Take spinlock {@code lock} (ticket order, FIFO); while it is held elsewhere the thread spins on its vCPU. */
    record Acquire(int lock) implements Phase {
    }

    /** Release spinlock {@code lock} (held by this thread). */
    record Release(int lock) implements Phase {
    }

    /**
     * Take blocking mutex {@code mutex} (a pthread mutex: glibc's pthread_mutex_lock sleeps on a futex, it does
     * not spin). While it is held elsewhere the thread leaves its vCPU and queues FIFO; mutex ids are their own
     * namespace, apart from spinlock ids.
     */
    record MutexLock(int mutex) implements Phase {
    }

    /** Release mutex {@code mutex} (held by this thread): the first waiter gets it and becomes ready. */
    record MutexUnlock(int mutex) implements Phase {
    }

    /** The thread ends. */
    record Exit() implements Phase {
    }

    Exit EXIT = new Exit();
}
