package io.schedlab.sweeps;

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
 * ci95_low, ci95_high, min, max, baseline_mean, delta_pct, improvement_pct. An empty field is
 * "no value" (pandas reads it as NaN).
 */
public final class SweepTableCsv {

    private SweepTableCsv() {
    }

    public static String write(SweepTable table) {
        List<String> header = new ArrayList<>(List.of("cell", "cell_key"));
        header.addAll(table.axes());
        header.addAll(List.of("metric", "pointer", "better", "n", "missing", "mean", "sd", "ci95_low", "ci95_high",
                "min", "max", "baseline_mean", "delta_pct", "improvement_pct"));
        StringWriter out = new StringWriter();
        try (CSVPrinter csv = new CSVPrinter(out, CSVFormat.RFC4180.builder().setHeader(header.toArray(String[]::new)).get())) {
            for (SweepTable.Row r : table.rows()) {
                List<Object> row = new ArrayList<>(List.of(r.cell(), r.cellKey()));
                table.axes().forEach(axis -> row.add(r.levels().get(axis)));
                row.addAll(java.util.Arrays.asList(r.metric(), r.pointer(), r.better().json(), r.n(), r.missing(),
                        r.mean(), r.sd(), r.ci95Low(), r.ci95High(), r.min(), r.max(), r.baselineMean(),
                        r.deltaPercent(), r.improvementPercent()));
                csv.printRecord(row);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }
}
