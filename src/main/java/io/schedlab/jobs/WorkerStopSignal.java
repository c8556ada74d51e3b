package io.schedlab.jobs;

/** Set when this process starts stopping; running jobs read it and hand their work back to the queue. */
final class WorkerStopSignal {

    private volatile boolean stopping;

    void stop() {
        stopping = true;
    }

    boolean isStopping() {
        return stopping;
    }
}
