package io.schedlab.engine.scenarios;

import java.util.List;

/**
 * A table in the shape of the published one: a caption with the unit, the row header and the
 * ordered rows and columns, the runs that fill its cells, and what ratios are relative to
 * (a reference column in the same row, or a reference row in the same column; null = no ratios).
 */
public record ScenarioTable(String caption, String rowHeader, List<String> rows, List<String> columns,
        List<ScenarioRun> runs, RatioReference ratioTo) {

    public ScenarioTable {
        rows = List.copyOf(rows);
        columns = List.copyOf(columns);
        runs = List.copyOf(runs);
    }

    /** Ratios are value / reference; for a column reference the reference is in the same row, for a row reference in the same column. */
    public record RatioReference(boolean column, String name) {

        public static RatioReference column(String name) {
            return new RatioReference(true, name);
        }

        public static RatioReference row(String name) {
            return new RatioReference(false, name);
        }
    }
}
