package io.schedlab.engine.sim;

import java.util.ArrayDeque;

/** A guest ticket spinlock: one holder, waiters served in FIFO (ticket) order. */
final class GuestLock {
    GuestThreadRun holder;
    final ArrayDeque<GuestThreadRun> waiters = new ArrayDeque<>();
}
