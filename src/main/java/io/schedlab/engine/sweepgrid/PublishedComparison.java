package io.schedlab.engine.sweepgrid;

import io.schedlab.engine.sweepgrid.SweepDefinition.Band;
import io.schedlab.engine.sweepgrid.SweepDefinition.Metric;
import io.schedlab.engine.sweepgrid.SweepDefinition.PublishedCell;
import io.schedlab.engine.sweepgrid.SweepDefinition.PublishedTable;
import io.schedlab.engine.sweepgrid.SweepDefinition.Reference;
import io.schedlab.engine.sweepgrid.SweepTable.PublishedCellView;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A published table filled with a sweep's statistics: each published cell's mean and sd beside
 * its published number, and both as ratios to the table's reference cell and as effects
 * (ratio - 1), as {@link SweepTable#EFFECT_CONVENTION} states.
 */
final class PublishedComparison {

    private final PublishedTable table;
    private final Map<String, PublishedCellView> byPlace = new HashMap<>();
    private final Map<Long, PublishedCellView> bySweepCell = new HashMap<>();

    PublishedComparison(PublishedTable table, List<SweepCell> cells, List<Metric> metrics, CellStatistics[][] stats) {
        this.table = table;
        Map<String, Integer> metricIndex = new HashMap<>();
        for (int m = 0; m < metrics.size(); m++) {
            metricIndex.put(metrics.get(m).name(), m);
        }
        Map<String, Integer> cellIndex = new HashMap<>();
        cells.forEach(c -> cellIndex.put(c.levels().toString(), c.index()));
        Map<String, Raw> raw = new HashMap<>();
        for (PublishedCell p : table.cells()) {
            Integer c = cellIndex.get(orderedLike(cells, p.cell()).toString());
            Integer m = metricIndex.get(p.metric());
            CellStatistics s = c == null || m == null ? null : stats[c][m];
            raw.put(place(p.row(), p.column()), new Raw(p, c, m, s));
        }
        for (Raw r : raw.values()) {
            Raw ref = reference(raw, r.cell.row(), r.cell.column());
            Double mean = r.stats == null ? null : r.stats.mean();
            Double refMean = ref == null || ref.stats == null ? null : ref.stats.mean();
            Double ratio = ratio(mean, refMean);
            Double publishedRatio = ratio(r.cell.value(), ref == null ? null : ref.cell.value());
            PublishedCellView view = new PublishedCellView(r.cell.row(), r.cell.column(), r.cellIndex,
                    r.cellIndex == null ? null : cells.get(r.cellIndex).key(), r.cell.metric(),
                    r.stats == null ? 0 : r.stats.n(), mean, r.stats == null ? null : r.stats.sd(), r.cell.value(),
                    ratio, publishedRatio, effect(ratio), effect(publishedRatio), r.cell.note(), r.cell.band(),
                    pass(r.cell.band(), mean, effect(ratio)));
            byPlace.put(place(r.cell.row(), r.cell.column()), view);
            if (r.cellIndex != null && r.metricIndex != null) {
                bySweepCell.put(key(r.cellIndex, r.metricIndex), view);
            }
        }
    }

    private record Raw(PublishedCell cell, Integer cellIndex, Integer metricIndex, CellStatistics stats) {
    }

    /** The published cell that this sweep cell x metric fills, or null. */
    PublishedCellView at(int cell, int metric) {
        return bySweepCell.get(key(cell, metric));
    }

    /** The published table in its shape: cells row by row, in published order. */
    SweepTable.PublishedView view() {
        List<PublishedCellView> ordered = new ArrayList<>();
        for (String row : table.rows()) {
            for (String column : table.columns()) {
                PublishedCellView v = byPlace.get(place(row, column));
                if (v != null) {
                    ordered.add(v);
                }
            }
        }
        return new SweepTable.PublishedView(table.caption(), table.rowHeader(), table.rows(), table.columns(),
                table.reference(), SweepTable.EFFECT_CONVENTION, ordered);
    }

    private Raw reference(Map<String, Raw> raw, String row, String column) {
        Reference ref = table.reference();
        if (ref == null) {
            return null;
        }
        return ref.column() != null ? raw.get(place(row, ref.column())) : raw.get(place(ref.row(), column));
    }

    /** The cell's levels in the grid's axis order, so they compare with a grid cell's. */
    private static Map<String, String> orderedLike(List<SweepCell> cells, Map<String, String> levels) {
        Map<String, String> ordered = new java.util.LinkedHashMap<>();
        if (!cells.isEmpty()) {
            cells.get(0).levels().keySet().forEach(axis -> ordered.put(axis, levels.get(axis)));
        }
        return ordered;
    }

    private static Double ratio(Double value, Double reference) {
        return value == null || reference == null || reference == 0 ? null : value / reference;
    }

    /** Whether the simulated effect (or value, for a band on the value) lies in the band; null without either. */
    private static Boolean pass(Band band, Double mean, Double effect) {
        Double x = band == null ? null : band.on().equals("value") ? mean : effect;
        return x == null || x.isNaN() ? null : band.contains(x);
    }

    private static Double effect(Double ratio) {
        return ratio == null ? null : ratio - 1;
    }

    private static String place(String row, String column) {
        return row + "\u0000" + column;
    }

    private static long key(int cell, int metric) {
        return ((long) cell << 32) | metric;
    }
}
