package io.schedlab.engine.run;

import io.schedlab.engine.output.ResultDocument;
import java.util.Optional;

/** Thrown out of {@link Engine#run} when the {@link RunControl} asked to cancel; carries the partial result. */
public class RunCancelledException extends RuntimeException {
    private final transient ResultDocument partialResult;

    public RunCancelledException(long simulatedNanos) {
        this(simulatedNanos, null);
    }

    public RunCancelledException(long simulatedNanos, ResultDocument partialResult) {
        super("cancelled at simulated time " + simulatedNanos + " ns");
        this.partialResult = partialResult;
    }

    /** The result up to the stop ({@code partial: true}, stop reason {@code stopped}), when the engine built one. */
    public Optional<ResultDocument> partialResult() {
        return Optional.ofNullable(partialResult);
    }
}
