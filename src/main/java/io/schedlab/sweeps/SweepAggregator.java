package io.schedlab.sweeps;

import io.schedlab.sweeps.SweepDefinition.Metric;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.commons.math3.stat.descriptive.SummaryStatistics;
import tools.jackson.core.JsonPointer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Builds a sweep's table from its children's stored result documents, fed one at a time (only
 * running sums are kept, so a sweep's size does not matter to memory): each metric's pointer is
 * read in every result; a value that is absent or not a number counts as missing.
 */
final class SweepAggregator {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final List<SweepCell> cells;
    private final List<Metric> metrics;
    private final List<JsonPointer> pointers;
    private final SummaryStatistics[][] values;
    private final long[][] missing;

    SweepAggregator(List<SweepCell> cells, List<Metric> metrics) {
        this.cells = cells;
        this.metrics = metrics;
        this.pointers = metrics.stream().map(m -> JsonPointer.compile(m.pointer())).toList();
        this.values = new SummaryStatistics[cells.size()][metrics.size()];
        this.missing = new long[cells.size()][metrics.size()];
        for (SummaryStatistics[] row : values) {
            for (int m = 0; m < row.length; m++) {
                row[m] = new SummaryStatistics();
            }
        }
    }

    /** Adds one SUCCEEDED child's result document. */
    void add(int cellIndex, String resultJson) {
        if (cellIndex < 0 || cellIndex >= cells.size() || resultJson == null) {
            return;
        }
        JsonNode result = JSON.readTree(resultJson);
        for (int m = 0; m < pointers.size(); m++) {
            JsonNode value = result.at(pointers.get(m));
            if (value.isNumber() && Double.isFinite(value.asDouble())) {
                values[cellIndex][m].addValue(value.asDouble());
            } else {
                missing[cellIndex][m]++;
            }
        }
    }

    /** The table so far; % vs baseline against {@code baselineCell} when it is not null. */
    SweepTable table(UUID sweepId, boolean complete, List<String> axes, Integer baselineCell) {
        List<SweepTable.Row> rows = new ArrayList<>();
        for (SweepCell cell : cells) {
            for (int m = 0; m < metrics.size(); m++) {
                Metric metric = metrics.get(m);
                CellStatistics s = CellStatistics.of(values[cell.index()][m]);
                Double baseline = baselineCell == null ? null : CellStatistics.of(values[baselineCell][m]).mean();
                Double delta = s.mean() == null || baseline == null || baseline == 0 ? null
                        : 100 * (s.mean() - baseline) / Math.abs(baseline);
                Double improvement = delta == null ? null
                        : metric.better() == SweepDefinition.Direction.HIGHER ? delta : -delta;
                rows.add(new SweepTable.Row(cell.index(), cell.key(), cell.levels(), metric.name(), metric.pointer(),
                        metric.better(), s.n(), missing[cell.index()][m], s.mean(), s.sd(), s.ci95Low(), s.ci95High(),
                        s.min(), s.max(), baseline, delta, improvement == null ? null : improvement + 0.0)); // + 0.0: no -0.0
            }
        }
        String baselineKey = baselineCell == null ? null : cells.get(baselineCell).key();
        return new SweepTable(sweepId, complete, axes, baselineCell, baselineKey, SweepTable.SIGN_CONVENTION, rows);
    }
}
