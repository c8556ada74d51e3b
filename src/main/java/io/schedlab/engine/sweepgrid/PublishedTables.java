package io.schedlab.engine.sweepgrid;

import io.schedlab.engine.sweepgrid.SweepDefinition.Band;
import io.schedlab.engine.sweepgrid.SweepDefinition.Metric;
import io.schedlab.engine.sweepgrid.SweepDefinition.PublishedCell;
import io.schedlab.engine.sweepgrid.SweepDefinition.PublishedTable;
import io.schedlab.engine.sweepgrid.SweepDefinition.Reference;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Checks a sweep's published table against its grid and metrics; every problem named by a pointer. */
final class PublishedTables {

    /** Most rows, and most columns, of a published table. */
    static final int MAX_LABELS = 100;
    /** Most characters of a caption, a row header, a note, a row or column label. */
    static final int MAX_TEXT = 500;

    private PublishedTables() {
    }

    static void check(PublishedTable t, List<String> axes, List<List<String>> levels, List<Metric> metrics,
            SweepLimits limits, List<SweepViolation> out) {
        if (t == null) {
            return;
        }
        text(t.caption(), "/published/caption", out);
        text(t.rowHeader(), "/published/rowHeader", out);
        Set<String> rows = labels(t.rows(), "/published/rows", out);
        Set<String> columns = labels(t.columns(), "/published/columns", out);
        Reference ref = t.reference();
        if (ref != null) {
            if ((ref.column() == null) == (ref.row() == null)) {
                out.add(SweepViolation.of("/published/reference", "give column or row, not both"));
            } else if (ref.column() != null && !columns.contains(ref.column())) {
                out.add(SweepViolation.of("/published/reference/column", "'" + ref.column() + "' is not a column"));
            } else if (ref.row() != null && !rows.contains(ref.row())) {
                out.add(SweepViolation.of("/published/reference/row", "'" + ref.row() + "' is not a row"));
            }
        }
        List<PublishedCell> cells = t.cells() == null ? List.of() : t.cells();
        int most = Math.min(rows.size() * columns.size(), limits.maxExperiments() * limits.maxMetrics());
        if (cells.size() > most) {
            out.add(SweepViolation.of("/published/cells", "at most one cell per row and column (" + most + ")"));
            return;
        }
        Set<String> metricNames = new HashSet<>();
        metrics.forEach(m -> metricNames.add(m.name()));
        Set<String> places = new HashSet<>();
        for (int i = 0; i < cells.size(); i++) {
            PublishedCell c = cells.get(i);
            String at = "/published/cells/" + i;
            if (c == null) {
                out.add(SweepViolation.of(at, "a cell is an object with row, column, cell, metric and value"));
                continue;
            }
            if (!rows.contains(c.row())) {
                out.add(SweepViolation.of(at + "/row", "not one of the rows"));
            }
            if (!columns.contains(c.column())) {
                out.add(SweepViolation.of(at + "/column", "not one of the columns"));
            }
            if (!places.add(c.row() + "\u0000" + c.column())) {
                out.add(SweepViolation.of(at, "another cell is already at row '" + c.row() + "', column '" + c.column() + "'"));
            }
            if (!metricNames.contains(c.metric())) {
                out.add(SweepViolation.of(at + "/metric", "no metric is named '" + c.metric() + "'"));
            }
            if (c.value() != null && !Double.isFinite(c.value())) {
                out.add(SweepViolation.of(at + "/value", "a finite number, or null when the source gives none"));
            }
            if (c.note() != null) {
                text(c.note(), at + "/note", out);
            }
            if (c.band() != null) {
                checkBand(c.band(), at + "/band", out);
            }
            checkLevels(c.cell(), axes, levels, at + "/cell", out);
        }
    }

    private static void checkBand(Band b, String at, List<SweepViolation> out) {
        if (!Band.KINDS.contains(b.kind())) {
            out.add(SweepViolation.of(at + "/kind", "one of " + Band.KINDS));
        }
        if (!Band.QUANTITIES.contains(b.on())) {
            out.add(SweepViolation.of(at + "/on", "one of " + Band.QUANTITIES));
        }
        boolean finite = true;
        for (String bound : List.of("low", "high")) {
            Double v = bound.equals("low") ? b.low() : b.high();
            if (v == null || !Double.isFinite(v)) {
                out.add(SweepViolation.of(at + "/" + bound, "a finite number"));
                finite = false;
            }
        }
        if (finite && b.low() > b.high()) {
            out.add(SweepViolation.of(at + "/high", "not below low"));
        }
        text(b.source(), at + "/source", out);
    }

    private static void checkLevels(Map<String, String> cell, List<String> axes, List<List<String>> levels, String at,
            List<SweepViolation> out) {
        if (cell == null || !cell.keySet().equals(new HashSet<>(axes))) {
            out.add(SweepViolation.of(at, "one level of every axis " + axes));
            return;
        }
        for (int a = 0; a < axes.size(); a++) {
            if (!levels.get(a).contains(cell.get(axes.get(a)))) {
                out.add(SweepViolation.of(at, "'" + cell.get(axes.get(a)) + "' is not a level of axis '" + axes.get(a) + "'"));
            }
        }
    }

    private static Set<String> labels(List<String> labels, String at, List<SweepViolation> out) {
        if (labels == null || labels.isEmpty() || labels.size() > MAX_LABELS) {
            out.add(SweepViolation.of(at, "between 1 and " + MAX_LABELS + " labels"));
            return Set.of();
        }
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < labels.size(); i++) {
            text(labels.get(i), at + "/" + i, out);
            if (!seen.add(labels.get(i))) {
                out.add(SweepViolation.of(at + "/" + i, "'" + labels.get(i) + "' appears twice"));
            }
        }
        return seen;
    }

    private static void text(String s, String at, List<SweepViolation> out) {
        if (s == null || s.length() > MAX_TEXT || s.chars().anyMatch(Character::isISOControl)) {
            out.add(SweepViolation.of(at, "required: at most " + MAX_TEXT + " characters, no control characters"));
        }
    }
}
