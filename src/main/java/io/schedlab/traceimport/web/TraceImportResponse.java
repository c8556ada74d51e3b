package io.schedlab.traceimport.web;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.schedlab.engine.traceimport.RecordedTrace;
import io.schedlab.experiments.Experiment;
import io.schedlab.experiments.ExperimentStatus;
import java.util.UUID;
import tools.jackson.databind.JsonNode;

/**
 * An imported trace: the experiment to edit and submit (POST /api/v1/experiments), what the file held, and,
 * when submitted at once, the new experiment.
 *
 * @param experiment the experiment document, as a user would POST it
 * @param recorded   what the trace held
 * @param submitted  the submitted experiment (submit=true), else absent
 */
record TraceImportResponse(JsonNode experiment, Recorded recorded,
        @JsonInclude(JsonInclude.Include.NON_NULL) Submitted submitted) {

    /** The trace: format, host CPUs, span, records read and lost, threads (vCPUs) and VMs. */
    record Recorded(String format, int cpus, double spanSeconds, long records, long lostRecords, int threads,
            int vms) {

        static Recorded of(RecordedTrace t, int vms) {
            return new Recorded(t.format(), t.cpus(), t.spanNanos() / 1e9, t.records(), t.lostRecords(),
                    t.threads().size(), vms);
        }
    }

    /** The experiment created by the import: its id and status; replay compares it once it has run. */
    record Submitted(UUID id, ExperimentStatus status, String replay) {

        static Submitted of(Experiment e) {
            return new Submitted(e.id(), e.status(), "/api/v1/experiments/" + e.id() + "/replay");
        }
    }
}
