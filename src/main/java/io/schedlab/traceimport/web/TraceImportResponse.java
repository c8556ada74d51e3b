package io.schedlab.traceimport.web;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.tracereplay.RecordedTrace;
import io.schedlab.experiments.Experiment;
import io.schedlab.experiments.status.ExperimentStatus;
import io.swagger.v3.oas.annotations.media.Schema;
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
record TraceImportResponse(@Schema(implementation = ExperimentSpec.class) JsonNode experiment, RecordedTraceSummary recorded,
        @JsonInclude(JsonInclude.Include.NON_NULL) ImportedExperimentRef submitted) {

    /** The trace: format, host CPUs, span, records read and lost, threads (vCPUs) and VMs. */
    record RecordedTraceSummary(String format, int cpus, double spanSeconds, long records, long lostRecords, int threads,
            int vms) {

        static RecordedTraceSummary of(RecordedTrace t, int vms) {
            return new RecordedTraceSummary(t.format(), t.cpus(), t.spanNanos() / 1e9, t.records(), t.lostRecords(),
                    t.threads().size(), vms);
        }
    }

    /** The experiment created by the import: its id and status; replay compares it once it has run. */
    record ImportedExperimentRef(UUID id, ExperimentStatus status, String replay) {

        static ImportedExperimentRef of(Experiment e) {
            return new ImportedExperimentRef(e.id(), e.status(), "/api/v1/experiments/" + e.id() + "/replay");
        }
    }
}
