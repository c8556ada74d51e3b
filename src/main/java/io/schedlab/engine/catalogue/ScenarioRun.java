package io.schedlab.engine.catalogue;

import io.schedlab.engine.spec.ExperimentSpec;
import java.util.List;

/**
 * One experiment of a sweep: a raw spec (engine defaults fill the rest), how often to repeat it
 * (seeds {@code spec.seed + 0..repeats-1}; the published E3/E4 numbers are averages of runs), and
 * the cells it fills. {@code note} explains a stand-in (e.g. a policy used because the one the
 * source used is not available yet); null when the run is the real thing.
 */
public record ScenarioRun(String label, ExperimentSpec spec, int repeats, List<Measure> measures, String note) {

    public ScenarioRun {
        if (repeats < 1) {
            throw new IllegalArgumentException("repeats must be >= 1");
        }
        measures = List.copyOf(measures);
    }
}
