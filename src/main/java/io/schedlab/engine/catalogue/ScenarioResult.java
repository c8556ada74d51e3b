package io.schedlab.engine.catalogue;

import io.schedlab.engine.sweepgrid.SweepDefinition.Band;
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
     * published value, both as ratios to the table's reference cell (null without one), its
     * tolerance band (null: not scored) and whether it passes it (null: no band or no value), as the
     * sweep table's published view gives them.
     */
    public record Cell(double mean, double stddev, int n, Double published, Double ratio, Double publishedRatio,
            Band band, Boolean pass) {

        /** A cell without a band. */
        public Cell(double mean, double stddev, int n, Double published, Double ratio, Double publishedRatio) {
            this(mean, stddev, n, published, ratio, publishedRatio, null, null);
        }

        public boolean measured() {
            return n > 0;
        }

        /** Whether the cell is scored: it has a band. */
        public boolean scored() {
            return band != null;
        }

        /** Whether it passes: scored, measured and inside its band. */
        public boolean passes() {
            return Boolean.TRUE.equals(pass);
        }
    }
}
