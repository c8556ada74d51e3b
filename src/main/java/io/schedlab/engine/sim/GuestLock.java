package io.schedlab.engine.sim;

import java.util.ArrayDeque;

/**
 * A guest spinlock (or mutex): one holder, waiters served in FIFO (ticket) order; a test-and-set spinlock
 * goes to a waiter that is running when it is freed, or stays free for the first one to run.
 */
final class GuestLock {
    final boolean testAndSet;

    GuestLock() {
        this(false);
    }

    GuestLock(boolean testAndSet) {
        this.testAndSet = testAndSet;
    }

    GuestThreadRun holder;
    final ArrayDeque<GuestThreadRun> waiters = new ArrayDeque<>();
}
