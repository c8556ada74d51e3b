package io.schedlab.experiments.web;

import io.schedlab.experiments.Experiment;

/**
 * One server-sent event of an experiment's progress stream: the SSE event name, its id (the change it
 * reports, as {@code STATUS/PROGRESS/SECONDS}) and the experiment as getExperiment answers it. Typed in
 * openapi.yaml as the component {@value #SCHEMA}, the stream's {@code x-itemSchema}.
 */
record ExperimentStatusEvent(String event, String id, ExperimentResponse data) {

    /** The component schema's name. */
    static final String SCHEMA = "ExperimentStatusEvent";
    /** The only event name the stream sends. */
    static final String STATUS = "status";

    static ExperimentStatusEvent of(Experiment e) {
        return new ExperimentStatusEvent(STATUS, e.status() + "/" + e.progress() + "/" + e.simulatedSeconds(),
                ExperimentResponse.of(e));
    }
}
