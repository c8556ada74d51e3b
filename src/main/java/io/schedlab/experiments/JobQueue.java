package io.schedlab.experiments;

import java.util.List;
import java.util.UUID;

/** The persistent simulation job queue (db-scheduler one-time tasks), shared by every replica. */
public interface JobQueue {

    /** Schedule the simulation of an experiment; joins the caller's transaction so record and job agree. */
    void enqueue(UUID experimentId);

    /** {@link #enqueue} for several experiments at once (a sweep's children): one batch of inserts where the queue can. */
    default void enqueueAll(List<UUID> experimentIds) {
        experimentIds.forEach(this::enqueue);
    }

    /** Jobs waiting or running (for the queue-full check and the queue-depth gauge). */
    long depth();

    /**
     * Removes the job of an experiment cancelled while QUEUED, if no worker has taken it yet (joins the
     * caller's transaction); true when removed. Optional: a job left behind is dropped when a worker sees
     * the experiment is no longer QUEUED, but it counts in {@link #depth()} until then.
     */
    default boolean discard(UUID experimentId) {
        return false;
    }
}
