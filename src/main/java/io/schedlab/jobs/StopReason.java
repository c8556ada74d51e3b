package io.schedlab.jobs;

/** Why a job asked the engine to stop early (the engine only sees "cancel"). */
enum StopReason {
    /** Still running, nothing asked it to stop. */
    NONE,
    /** The user cancelled the experiment. */
    CANCEL_REQUESTED,
    /** The wall-clock budget {@code schedlab.jobs.timeout} ran out. */
    TIMEOUT,
    /** This process is stopping; the job goes back to the queue for the next process. */
    SHUTDOWN
}
