package io.schedlab.engine.catalogue;

import java.util.List;

/**
 * A table in the shape of the published one: a caption with the unit, the row header and the
 * ordered rows and columns, the runs that fill its cells, what ratios are relative to (a reference
 * column in the same row, or a reference row in the same column; null = no ratios), and whether
 * its published cells are scored (false for a stand-in or a variant that shows the same published
 * numbers beside another set-up, so that each published number is scored once).
 */
public record ScenarioTable(String caption, String rowHeader, List<String> rows, List<String> columns,
        List<ScenarioRun> runs, RatioReference ratioTo, boolean scored) {

    public ScenarioTable {
        rows = List.copyOf(rows);
        columns = List.copyOf(columns);
        runs = List.copyOf(runs);
    }

    /** A scored table. */
    public ScenarioTable(String caption, String rowHeader, List<String> rows, List<String> columns,
            List<ScenarioRun> runs, RatioReference ratioTo) {
        this(caption, rowHeader, rows, columns, runs, ratioTo, true);
    }

    /** The same table with other runs. */
    public ScenarioTable withRuns(List<ScenarioRun> newRuns) {
        return new ScenarioTable(caption, rowHeader, rows, columns, newRuns, ratioTo, scored);
    }

    /** The same table, shown but not scored. */
    public ScenarioTable unscored() {
        return new ScenarioTable(caption, rowHeader, rows, columns, runs, ratioTo, false);
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
