package io.schedlab.jobs;

import java.util.UUID;

/** The persistent simulation job queue (db-scheduler one-time tasks), shared by every replica. */
public interface JobQueue {

    /** Schedule the simulation of an experiment; joins the caller's transaction so record and job agree. */
    void enqueue(UUID experimentId);

    /** Jobs waiting or running (for the queue-full check and the queue-depth gauge). */
    long depth();
}
