package io.schedlab.scenarios;

import io.schedlab.engine.sweepgrid.SweepDefinition;
import io.schedlab.engine.sweepgrid.SweepLimits;
import io.schedlab.engine.sweepgrid.SweepSizes;
import io.schedlab.engine.sweepgrid.SweepViolation;
import io.schedlab.scenarios.ScenarioSweeps.Overrides;
import java.util.ArrayList;
import java.util.List;

/**
 * Bounds a scenario run's overrides before they are applied: {@code repetitions} n becomes n seeds
 * in every table, so it is checked against the sweep limit, alone and times each table's cells,
 * before a single seed exists (a run with 2147483647 repetitions used to build the seed list
 * first and run the heap out). {@code durationSeconds} is held to the experiments' limit.
 */
final class OverridesCheck {

    private final SweepLimits limits;
    private final double maxDurationSeconds;

    OverridesCheck(SweepLimits limits, double maxDurationSeconds) {
        this.limits = limits;
        this.maxDurationSeconds = maxDurationSeconds;
    }

    /** Every problem of the overrides for these tables, pointers into the overrides body. */
    List<SweepViolation> check(Overrides o, List<ScenarioSweeps.TableSweep> tables) {
        List<SweepViolation> out = new ArrayList<>();
        Integer repetitions = o.repetitions();
        if (repetitions != null && (repetitions < 1 || repetitions > limits.maxExperiments())) {
            out.add(SweepViolation.of("/repetitions", "must be between 1 and " + limits.maxExperiments()
                    + " (schedlab.sweeps.max-experiments)"));
        } else if (repetitions != null) {
            // the table with the most cells decides: one problem names the bound for all of them
            ScenarioSweeps.TableSweep largest = null;
            long cells = 0;
            for (ScenarioSweeps.TableSweep t : tables) {
                long c = SweepSizes.cells(t.definition());
                if (c > cells) {
                    cells = c;
                    largest = t;
                }
            }
            if (largest != null && cells * repetitions > limits.maxExperiments()) {
                out.add(SweepViolation.of("/repetitions", "table '" + largest.caption() + "' has " + cells + " cells: "
                        + cells + " x " + repetitions + " repetitions = " + cells * repetitions
                        + " experiments; at most " + limits.maxExperiments() + " (schedlab.sweeps.max-experiments),"
                        + " so at most " + limits.maxExperiments() / cells + " repetitions"));
            }
        }
        Double duration = o.durationSeconds();
        if (duration != null && !(duration > 0 && duration <= maxDurationSeconds)) {
            out.add(SweepViolation.of("/durationSeconds", "must be > 0 and <= " + maxDurationSeconds
                    + " (schedlab.limits.max-duration-seconds)"));
        }
        return out;
    }
}
