package io.schedlab.engine.sim;

import java.util.ArrayDeque;

/** A guest counting semaphore (a futex-based wait queue with a count): free units, waiters in FIFO order. */
final class GuestSemaphore {
    long units;
    final ArrayDeque<GuestThreadRun> waiters = new ArrayDeque<>();
}
