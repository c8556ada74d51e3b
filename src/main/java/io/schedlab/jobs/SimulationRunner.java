package io.schedlab.jobs;

import io.schedlab.engine.run.RunControl;
import io.schedlab.engine.output.ResultDocument;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.Limits;

/** Runs one normalized experiment to a result; the engine in production, a controllable fake in tests. */
@FunctionalInterface
public interface SimulationRunner {

    /** Same contract as {@link io.schedlab.engine.Engine#run}. */
    ResultDocument run(ExperimentSpec normalized, Limits limits, RunControl control);
}
