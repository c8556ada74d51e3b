package io.schedlab.sweeps;

import io.schedlab.sweeps.SweepDefinition.Metric;
import java.util.List;

/** What the table of a stored sweep needs of its plan: axis names, cells, baseline cell and metrics. */
public record SweepLayout(List<String> axes, List<SweepCell> cells, Integer baselineCell, List<Metric> metrics) {

    static SweepLayout of(SweepPlan plan) {
        return new SweepLayout(plan.axisNames(), plan.cells(), plan.baselineCell(), plan.definition().metrics());
    }
}
