package io.schedlab.engine.catalogue;

import io.schedlab.engine.catalogue.ScenarioResult.Cell;
import io.schedlab.engine.catalogue.ScenarioResult.TableResult;
import io.schedlab.engine.catalogue.ScenarioTable.RatioReference;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Prints a scenario result as plain-text tables in the published shape: one row per published row,
 * and per published column the simulated value ("sim", mean +- stddev over repeats), the published
 * value ("pub"), and both as ratios to the table's reference so that shapes compare even where the
 * seconds do not. "n/a" marks a cell that was not measured (see the notes under the table).
 */
public final class TablePrinter {

    private TablePrinter() {
    }

    public static String print(ScenarioResult result) {
        StringBuilder out = new StringBuilder();
        Scenario s = result.scenario();
        out.append(s.id()).append(" - ").append(s.title()).append('\n');
        for (String line : s.setup()) {
            out.append("  ").append(line).append('\n');
        }
        out.append("  Expected shape: ").append(s.expectedShape()).append('\n');
        for (TableResult t : result.tables()) {
            out.append('\n');
            printTable(t, out);
        }
        return out.toString();
    }

    private static void printTable(TableResult t, StringBuilder out) {
        ScenarioTable table = t.table();
        RatioReference ref = table.ratioTo();
        out.append("  ").append(table.caption());
        if (ref != null) {
            out.append("; ratio = value / ").append(ref.name()).append(ref.column() ? " (same row)" : " (same column)");
        }
        out.append('\n');
        int per = ref != null ? 4 : 2;
        List<String[]> lines = new ArrayList<>();
        List<String> sub = new ArrayList<>();
        sub.add(table.rowHeader());
        for (int c = 0; c < table.columns().size(); c++) {
            sub.add("sim");
            sub.add("pub");
            if (ref != null) {
                sub.add("ratio sim");
                sub.add("ratio pub");
            }
        }
        lines.add(sub.toArray(String[]::new));
        for (String row : table.rows()) {
            List<String> line = new ArrayList<>();
            line.add(row);
            for (String col : table.columns()) {
                Cell cell = t.cell(row, col);
                line.add(simText(cell));
                line.add(cell == null || cell.published() == null ? "-" : num(cell.published()));
                if (ref != null) {
                    line.add(ratio(cell == null ? null : cell.ratio()));
                    line.add(ratio(cell == null ? null : cell.publishedRatio()));
                }
            }
            lines.add(line.toArray(String[]::new));
        }
        int cols = lines.get(0).length;
        int[] width = new int[cols];
        for (String[] l : lines) {
            for (int i = 0; i < cols; i++) {
                width[i] = Math.max(width[i], l[i].length());
            }
        }
        // Each published column spans its sub-columns; widen the last one if the name is longer.
        for (int c = 0; c < table.columns().size(); c++) {
            int first = 1 + c * per;
            int span = 2 * (per - 1);
            for (int i = first; i < first + per; i++) {
                span += width[i];
            }
            int missing = table.columns().get(c).length() - span;
            if (missing > 0) {
                width[first + per - 1] += missing;
            }
        }
        StringBuilder group = new StringBuilder("  ").append(pad("", width[0], true));
        for (int c = 0; c < table.columns().size(); c++) {
            int first = 1 + c * per;
            int span = 2 * (per - 1);
            for (int i = first; i < first + per; i++) {
                span += width[i];
            }
            group.append(" | ").append(pad(table.columns().get(c), span, true));
        }
        out.append(group.toString().stripTrailing()).append('\n');
        for (String[] l : lines) {
            StringBuilder sb = new StringBuilder("  ");
            for (int i = 0; i < cols; i++) {
                boolean groupStart = i >= 1 && (i - 1) % per == 0;
                sb.append(groupStart ? " | " : i == 0 ? "" : "  ");
                sb.append(pad(l[i], width[i], i == 0));
            }
            out.append(sb.toString().stripTrailing()).append('\n');
        }
        for (String note : t.notes()) {
            out.append("  note: ").append(note).append('\n');
        }
    }

    private static String simText(Cell cell) {
        if (cell == null || !cell.measured()) {
            return "n/a";
        }
        return cell.n() > 1 ? num(cell.mean()) + "+-" + num(cell.stddev()) : num(cell.mean());
    }

    private static String ratio(Double ratio) {
        return ratio == null ? "-" : String.format(Locale.ROOT, "%.2f", ratio);
    }

    static String num(double v) {
        double a = Math.abs(v);
        if (v == Math.rint(v) && a < 1e15) {
            return Long.toString((long) v);
        }
        if (a >= 1000) {
            return String.format(Locale.ROOT, "%.0f", v);
        }
        if (a >= 10) {
            return String.format(Locale.ROOT, "%.1f", v);
        }
        return String.format(Locale.ROOT, "%.3g", v);
    }

    private static String pad(String s, int width, boolean left) {
        if (s.length() >= width) {
            return s;
        }
        String fill = " ".repeat(width - s.length());
        return left ? s + fill : fill + s;
    }
}
