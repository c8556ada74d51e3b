package io.schedlab.experiments.web;

import io.schedlab.experiments.Experiment;
import io.schedlab.experiments.ExperimentStatus;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;

/**
 * An experiment's status as the API returns it (POST, GET, list items, cancel). {@code owner}: the
 * submitting API key's name; {@code replica}: the replica that last started the run.
 */
record ExperimentResponse(UUID id, String name, Map<String, String> labels, String policy, ExperimentStatus status,
        double progress, double simulatedSeconds, Instant createdAt, Instant startedAt, Instant finishedAt,
        Double wallSeconds, String failureReason, boolean cancelRequested, String engineVersion,
        SummaryResponse summary, String owner, String replica, Links links) {

    /** Result summary of a SUCCEEDED experiment. */
    record SummaryResponse(double simulatedSeconds, double wallSeconds, long events, long contextSwitches,
            long migrations, double jainFairness) {
    }

    /** Where to go next. */
    record Links(String self, String events, String results, String trace, String input, String cancel) {
    }

    static ExperimentResponse of(Experiment e) {
        Experiment.Summary s = e.summary();
        String self = "/api/v1/experiments/" + e.id();
        return new ExperimentResponse(e.id(), e.name(), e.labels(), e.policy(), e.status(), e.progress(),
                e.simulatedSeconds(), e.createdAt(), e.startedAt(), e.finishedAt(), e.wallSeconds(), e.failureReason(),
                e.cancelRequested(), e.engineVersion(),
                s == null ? null : new SummaryResponse(s.simulatedSeconds(), s.wallSeconds(), s.events(),
                        s.contextSwitches(), s.migrations(), s.jainFairness()),
                e.owner(), e.replica(),
                new Links(self, self + "/events", self + "/results", self + "/trace", self + "/input", self + "/cancel"));
    }
}
