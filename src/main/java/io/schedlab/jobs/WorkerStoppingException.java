package io.schedlab.jobs;

/** Thrown out of a job when its process stops mid-run, so db-scheduler puts the job back in the queue. */
final class WorkerStoppingException extends RuntimeException {
    WorkerStoppingException(String message) {
        super(message);
    }
}
