package io.schedlab.jobs.support;

import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.SchedulerSpec;
import io.schedlab.engine.spec.TraceSpec;
import java.util.List;
import java.util.Map;

/** Minimal normalized specs for job tests (the fake simulator reads only name and duration). */
public final class Specs {

    private Specs() {
    }

    public static ExperimentSpec spec(String name, double durationSeconds) {
        return spec(name, durationSeconds, false);
    }

    public static ExperimentSpec spec(String name, double durationSeconds, boolean trace) {
        return new ExperimentSpec(name, Map.of(), 1L, durationSeconds, ExperimentSpec.StopCondition.DURATION, null,
                new SchedulerSpec("credit", Map.of()), Map.of(), List.of(), List.of(), new TraceSpec(trace, null));
    }
}
