package io.schedlab.engine.workloads;

/**
 * One step of a guest thread: compute (in user or guest kernel mode), sleep, take or release a spinlock or a
 * mutex, wait on or post a semaphore, or exit.
 */
public sealed interface Phase {

    /**
     * Run for {@code workNanos} of CPU time at nominal speed. With {@code memoryStream} the
     * thread streams memory: its progress rate is scaled by its share of the NUMA node's
     * bandwidth and by remote access (see the cost model); without it only SMT and cold caches slow it.
     * With {@code kernel} the work runs in guest kernel mode (a system call's work, outside any critical
     * section: preemptible, interrupts on); the hypervisor sees a vCPU preempted there as preempted in
     * kernel mode (KVM's preempted_in_kernel), not as inside a critical section.
     */
    record Compute(long workNanos, boolean memoryStream, boolean kernel) implements Phase {

        /** User-mode work. */
        public Compute(long workNanos, boolean memoryStream) {
            this(workNanos, memoryStream, false);
        }
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

    /**
     * Wait on counting semaphore {@code semaphore} (a futex-based wait: a socket reader sleeping in
     * sk_wait_data, a writer waiting for buffer space): take one unit if there is one, else leave the vCPU
     * and queue FIFO until a post hands one over. Semaphore ids are their own namespace; each starts at
     * 0 units, or at what {@link SemaphoreInit} gave it.
     */
    record SemaphoreWait(int semaphore) implements Phase {
    }

    /** Add one unit to semaphore {@code semaphore}: its longest waiter, if any, takes it and becomes ready (a wake-up). */
    record SemaphorePost(int semaphore) implements Phase {
    }

    /** Give semaphore {@code semaphore} {@code units} more units at once, waking no one (set-up of a buffer's free space). */
    record SemaphoreInit(int semaphore, int units) implements Phase {
    }

    /**
     * A TLB shootdown of the thread's address space (arch/x86/mm/tlb.c flush_tlb_mm_range -> flush_tlb_multi, as
     * after munmap or madvise(MADV_DONTNEED) when a heap shrinks): with preemption disabled the thread sends a
     * flush IPI to every other vCPU of its VM that runs a thread of it, and waits, spinning, until each has run
     * the handler (kernel/smp.c smp_call_function_many_cond with wait, csd_lock_wait). Idle vCPUs are in lazy
     * TLB mode and get none (tlb_is_not_lazy); vCPUs the host has preempted get none either, their flush is
     * deferred to their next entry (arch/x86/kernel/kvm.c kvm_flush_tlb_multi, KVM_FEATURE_PV_TLB_FLUSH).
     */
    record FlushTlb() implements Phase {
    }

    /** The thread ends. */
    record Exit() implements Phase {
    }

    Exit EXIT = new Exit();
}
