package io.schedlab.sweeps;

import io.schedlab.engine.sweepgrid.SweepCell;
import io.schedlab.engine.sweepgrid.SweepDefinition.Metric;
import io.schedlab.engine.sweepgrid.SweepDefinition.PublishedTable;
import io.schedlab.engine.sweepgrid.SweepPlan;
import java.util.List;

/**
 * What the table of a stored sweep needs of its plan: axis names, cells, baseline cell, metrics
 * and the published table (null when none; layouts stored before it existed read as none).
 */
public record SweepLayout(List<String> axes, List<SweepCell> cells, Integer baselineCell, List<Metric> metrics,
        PublishedTable published) {

    static SweepLayout of(SweepPlan plan) {
        return new SweepLayout(plan.axisNames(), plan.cells(), plan.baselineCell(), plan.definition().metrics(),
                plan.definition().published());
    }
}
