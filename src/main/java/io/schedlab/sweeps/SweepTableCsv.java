package io.schedlab.sweeps;

import io.schedlab.engine.sweeps.SweepTable;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;

/**
 * The tidy CSV of a sweep table (RFC 4180, header row, one row per cell x metric): cell,
 * cell_key, one column per axis (its level), metric, pointer, better, n, missing, mean, sd,
 * ci95_low, ci95_high, min, max, baseline_mean, delta_pct, improvement_pct, and for a sweep with a
 * published table published_row, published_column, published, effect, published_effect (the
 * cell x metric's place in the published table, its published number, and the simulated and
 * published effects, ratio - 1 against the table's reference). An empty field is "no value"
 * (pandas reads it as NaN).
 */
public final class SweepTableCsv {

    private SweepTableCsv() {
    }

    public static String write(SweepTable table) {
        List<String> header = new ArrayList<>(List.of("cell", "cell_key"));
        header.addAll(table.axes());
        header.addAll(List.of("metric", "pointer", "better", "n", "missing", "mean", "sd", "ci95_low", "ci95_high",
                "min", "max", "baseline_mean", "delta_pct", "improvement_pct"));
        boolean published = table.published() != null;
        if (published) {
            header.addAll(List.of("published_row", "published_column", "published", "effect", "published_effect"));
        }
        StringWriter out = new StringWriter();
        try (CSVPrinter csv = new CSVPrinter(out, CSVFormat.RFC4180.builder().setHeader(header.toArray(String[]::new)).get())) {
            for (SweepTable.Row r : table.rows()) {
                List<Object> row = new ArrayList<>(List.of(r.cell(), r.cellKey()));
                table.axes().forEach(axis -> row.add(r.levels().get(axis)));
                row.addAll(java.util.Arrays.asList(r.metric(), r.pointer(), r.better().json(), r.n(), r.missing(),
                        r.mean(), r.sd(), r.ci95Low(), r.ci95High(), r.min(), r.max(), r.baselineMean(),
                        r.deltaPercent(), r.improvementPercent()));
                if (published) {
                    row.addAll(java.util.Arrays.asList(r.publishedRow(), r.publishedColumn(), r.published(), r.effect(),
                            r.publishedEffect()));
                }
                csv.printRecord(row);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }
}
