package io.schedlab.engine.workloads;

/**
 * The semaphore ids through which a guest's virtio-net queue, its vhost worker and the kworker that injects the
 * queue's interrupts signal one another ({@code hostThreads[].serves} shares them). Per queue q, in a block far
 * above the small ids other workloads use: the TCP window's free chunks, the guest's kick (ioeventfd), the
 * worker's signal (irqfd, handed to a kworker) and the received chunks the guest's reader takes.
 */
final class VirtioNetQueues {
    /** Most queues per device (QEMU virtio-net: VIRTIO_QUEUE_MAX / 2 queue pairs, bounded lower here). */
    static final int MAX_QUEUES = 64;
    private static final int BASE = 1 << 24;

    private VirtioNetQueues() {
    }

    /** Free chunks of the window of queue q's connections (the receiver's ACKs give them back). */
    static int window(int q) {
        return BASE + 4 * q;
    }

    /** The sender's kick of queue q (vhost_poll_wakeup -> vhost_poll_queue -> the worker wakes). */
    static int kick(int q) {
        return BASE + 4 * q + 1;
    }

    /** The worker's irqfd signal for queue q (irqfd_wakeup -> schedule_work: the kworker wakes). */
    static int interrupt(int q) {
        return BASE + 4 * q + 2;
    }

    /** Chunks delivered into the receiving guest on queue q (its reader wakes). */
    static int delivered(int q) {
        return BASE + 4 * q + 3;
    }
}
