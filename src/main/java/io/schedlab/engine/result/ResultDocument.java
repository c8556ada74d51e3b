package io.schedlab.engine.result;

/** The full result of a run, serialized to JSON as is (records all the way down). TODO engine-core: fill in. */
public record ResultDocument(String engineVersion, ResultSummary summary) {
}
