package io.schedlab.experiments.web;

import io.schedlab.experiments.Experiment;
import io.schedlab.experiments.status.ExperimentStatus;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;

/**
 * An experiment's status as the API returns it (POST, GET, list items, cancel). Durations are
 * integer nanoseconds like the result document's: {@code simulatedNanos} reached so far,
 * {@code wallNanos} the simulation's wall time (so far while RUNNING, null before it started);
 * {@code owner}: the submitting API key's name; {@code replica}: the replica that last started the run.
 */
record ExperimentResponse(UUID id, String name, Map<String, String> labels, String policy, ExperimentStatus status,
        double progress, long simulatedNanos, Instant createdAt, Instant startedAt, Instant finishedAt,
        Long wallNanos, String failureReason, boolean cancelRequested, String engineVersion,
        SummaryResponse summary, String owner, String replica, Links links) {

    /** Result summary of an experiment with a result: the result document's summary without the headlines. */
    record SummaryResponse(long simulatedNanos, long wallNanos, long events, long contextSwitches,
            long migrations, Double jainIndex) {
    }

    /** Where to go next. */
    record Links(String self, String events, String results, String trace, String input, String cancel) {
    }

    static ExperimentResponse of(Experiment e) {
        Experiment.Summary s = e.summary();
        String self = "/api/v1/experiments/" + e.id();
        return new ExperimentResponse(e.id(), e.name(), e.labels(), e.policy(), e.status(), e.progress(),
                Math.round(e.simulatedSeconds() * 1e9), e.createdAt(), e.startedAt(), e.finishedAt(),
                e.wallSeconds() == null ? null : Math.round(e.wallSeconds() * 1e9), e.failureReason(),
                e.cancelRequested(), e.engineVersion(),
                s == null ? null : new SummaryResponse(s.simulatedNanos(), s.wallNanos(), s.events(),
                        s.contextSwitches(), s.migrations(), s.jainIndex()),
                e.owner(), e.replica(),
                new Links(self, self + "/events", self + "/results", self + "/trace", self + "/input", self + "/cancel"));
    }
}
