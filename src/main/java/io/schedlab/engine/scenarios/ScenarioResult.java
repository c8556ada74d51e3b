package io.schedlab.engine.scenarios;

import java.util.List;
import java.util.Map;

/** The outcome of running a scenario: per table, the cells (mean, standard deviation, runs, published) and notes. */
public record ScenarioResult(Scenario scenario, List<TableResult> tables) {

    /** One filled table; cells keyed row -> column in table order; missing cells mean "not available". */
    public record TableResult(ScenarioTable table, Map<String, Map<String, Cell>> cells, List<String> notes) {

        public Cell cell(String row, String column) {
            Map<String, Cell> r = cells.get(row);
            return r == null ? null : r.get(column);
        }
    }

    /**
     * A cell: mean and sample standard deviation over {@code n} runs (n = 0: not measured), the
     * published value, and both as ratios to the table's reference cell (null without one), as the
     * sweep table's published view gives them.
     */
    public record Cell(double mean, double stddev, int n, Double published, Double ratio, Double publishedRatio) {

        public boolean measured() {
            return n > 0;
        }
    }
}
