package io.schedlab.engine.sweepgrid;

import io.schedlab.engine.sweepgrid.SweepDefinition.Metric;
import io.schedlab.engine.sweepgrid.SweepDefinition.PublishedTable;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.commons.math3.stat.descriptive.SummaryStatistics;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Builds a sweep's table from its children's result documents, fed one at a time (only running
 * sums are kept, so a sweep's size does not matter to memory): each metric is read in every
 * result ({@link Metric#read}); a value that is absent or not a number counts as missing. The
 * service feeds it the stored results, the command line the documents it just computed.
 */
public final class SweepAggregator {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final List<SweepCell> cells;
    private final List<Metric> metrics;
    private final SummaryStatistics[][] values;
    private final long[][] missing;
    private final String[] units;

    public SweepAggregator(List<SweepCell> cells, List<Metric> metrics) {
        this.cells = cells;
        this.metrics = metrics;
        this.values = new SummaryStatistics[cells.size()][metrics.size()];
        this.missing = new long[cells.size()][metrics.size()];
        this.units = metrics.stream().map(MetricUnit::declared).toArray(String[]::new);
        for (SummaryStatistics[] row : values) {
            for (int m = 0; m < row.length; m++) {
                row[m] = new SummaryStatistics();
            }
        }
    }

    /** Adds one SUCCEEDED child's result document, as JSON text. */
    public void add(int cellIndex, String resultJson) {
        if (resultJson != null) {
            add(cellIndex, JSON.readTree(resultJson));
        }
    }

    /** Adds one SUCCEEDED child's result document. */
    public void add(int cellIndex, JsonNode result) {
        if (cellIndex < 0 || cellIndex >= cells.size() || result == null) {
            return;
        }
        for (int m = 0; m < metrics.size(); m++) {
            if (units[m] == null) {
                units[m] = MetricUnit.fromDocument(metrics.get(m), result);
            }
            Double value = metrics.get(m).read(result);
            if (value != null) {
                values[cellIndex][m].addValue(value);
            } else {
                missing[cellIndex][m]++;
            }
        }
    }

    /** The table so far; % vs baseline against {@code baselineCell} when it is not null. */
    public SweepTable table(UUID sweepId, boolean complete, List<String> axes, Integer baselineCell) {
        return table(sweepId, complete, axes, baselineCell, null);
    }

    /** The table so far, with the published table's values and effects beside when {@code published} is not null. */
    public SweepTable table(UUID sweepId, boolean complete, List<String> axes, Integer baselineCell,
            PublishedTable published) {
        CellStatistics[][] stats = new CellStatistics[cells.size()][metrics.size()];
        for (SweepCell cell : cells) {
            for (int m = 0; m < metrics.size(); m++) {
                stats[cell.index()][m] = CellStatistics.of(values[cell.index()][m]);
            }
        }
        PublishedComparison comparison = published == null ? null
                : new PublishedComparison(published, cells, metrics, stats);
        List<SweepTable.Row> rows = new ArrayList<>();
        for (SweepCell cell : cells) {
            for (int m = 0; m < metrics.size(); m++) {
                Metric metric = metrics.get(m);
                CellStatistics s = stats[cell.index()][m];
                Double baseline = baselineCell == null ? null : stats[baselineCell][m].mean();
                Double delta = s.mean() == null || baseline == null || baseline == 0 ? null
                        : 100 * (s.mean() - baseline) / Math.abs(baseline);
                Double improvement = delta == null ? null
                        : metric.better() == SweepDefinition.Direction.HIGHER ? delta : -delta;
                SweepTable.PublishedCellView p = comparison == null ? null : comparison.at(cell.index(), m);
                rows.add(new SweepTable.Row(cell.index(), cell.key(), cell.levels(), metric.name(), metric.pointer(),
                        units[m] == null || units[m].isEmpty() ? null : units[m], metric.better(), s.n(), missing[cell.index()][m], s.mean(), s.sd(), s.ci95Low(), s.ci95High(),
                        s.min(), s.max(), baseline, delta, improvement == null ? null : improvement + 0.0, // + 0.0: no -0.0
                        p == null ? null : p.row(), p == null ? null : p.column(), p == null ? null : p.published(),
                        p == null ? null : p.effect(), p == null ? null : p.publishedEffect()));
            }
        }
        String baselineKey = baselineCell == null ? null : cells.get(baselineCell).key();
        return new SweepTable(sweepId, complete, axes, baselineCell, baselineKey, SweepTable.SIGN_CONVENTION, rows,
                comparison == null ? null : comparison.view());
    }
}
