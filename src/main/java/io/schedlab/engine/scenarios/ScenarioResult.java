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

    /** A cell: mean and sample standard deviation over {@code n} runs (n = 0: not measured), and the published value. */
    public record Cell(double mean, double stddev, int n, Double published) {

        public boolean measured() {
            return n > 0;
        }
    }
}
