package io.schedlab.engine.run;

import io.schedlab.engine.output.ResultDocument;
import java.util.Optional;

/** Thrown when a run hits its bound on simulated events; carries the partial result. */
public class RunLimitExceededException extends RuntimeException {
    private final transient ResultDocument partialResult;

    public RunLimitExceededException(String message) {
        this(message, null);
    }

    public RunLimitExceededException(String message, ResultDocument partialResult) {
        super(message);
        this.partialResult = partialResult;
    }

    /** The result up to the stop ({@code partial: true}, stop reason {@code event-limit}), when the engine built one. */
    public Optional<ResultDocument> partialResult() {
        return Optional.ofNullable(partialResult);
    }
}
