package io.schedlab.engine;

/** Thrown out of {@link Engine#run} when the {@link RunControl} asked to cancel. */
public class RunCancelledException extends RuntimeException {
    public RunCancelledException(long simulatedNanos) {
        super("cancelled at simulated time " + simulatedNanos + " ns");
    }
}
