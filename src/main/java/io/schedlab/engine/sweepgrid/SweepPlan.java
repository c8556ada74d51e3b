package io.schedlab.engine.sweepgrid;

import java.util.List;
import tools.jackson.databind.node.ObjectNode;

/**
 * A checked sweep, expanded: the grid's cells, the seed of each repetition (the same in every
 * cell), the baseline cell (or null) and each cell's experiment before name, labels and seed are set.
 */
public record SweepPlan(SweepDefinition definition, List<String> axisNames, List<SweepCell> cells,
        List<ObjectNode> cellExperiments, List<Long> seeds, Integer baselineCell) {

    /** Child experiments in all: cells x repetitions. */
    public int total() {
        return cells.size() * seeds.size();
    }

    /** The experiment of one child: its cell's experiment with the repetition's seed (name and labels as the cell's). */
    public ObjectNode experiment(int cellIndex, int repetition) {
        ObjectNode child = cellExperiments.get(cellIndex).deepCopy();
        child.put("seed", seeds.get(repetition));
        return child;
    }
}
