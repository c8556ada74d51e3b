package io.schedlab.experiments.web;

import io.schedlab.experiments.Experiment;
import io.schedlab.experiments.ExperimentPage;
import io.schedlab.web.CsvResponses;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** A page of experiments as tidy CSV, one row per experiment; columns as ExperimentResponse's fields. */
final class ExperimentCsv {
    static final List<String> COLUMNS = List.of("id", "name", "policy", "status", "progress", "simulatedNanos",
            "createdAt", "startedAt", "finishedAt", "wallNanos", "failureReason", "events", "contextSwitches",
            "migrations", "jainIndex");

    private ExperimentCsv() {
    }

    static String page(ExperimentPage page) {
        List<List<Object>> rows = new ArrayList<>();
        for (Experiment e : page.items()) {
            ExperimentResponse r = ExperimentResponse.of(e);
            ExperimentResponse.SummaryResponse s = r.summary();
            rows.add(Arrays.asList(r.id(), r.name(), r.policy(), r.status(), r.progress(), r.simulatedNanos(),
                    r.createdAt(), r.startedAt(), r.finishedAt(), r.wallNanos(), r.failureReason(),
                    s == null ? null : s.events(), s == null ? null : s.contextSwitches(),
                    s == null ? null : s.migrations(), s == null ? null : s.jainIndex()));
        }
        return CsvResponses.table(COLUMNS, rows);
    }
}
