package io.schedlab.sweeps;

import io.schedlab.engine.sweepgrid.SweepTable;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;

/**
 * The tidy CSV of a sweep table (RFC 4180 quoting, LF line ends like every CSV of the API, header
 * row, one row per cell x metric), its columns named as the JSON table's fields: cell, cellKey,
 * one column per axis (its level), metric, pointer, unit, better, n, missing, mean, sd, ci95Low,
 * ci95High, min, max, baselineMean, deltaPercent, improvementPercent, and for a sweep with a
 * published table publishedRow, publishedColumn, published, effect, publishedEffect (the cell x
 * metric's place in the published table, its published number, and the simulated and published
 * effects, ratio - 1 against the table's reference). An empty field is "no value" (pandas reads it
 * as NaN).
 */
public final class SweepTableCsv {

    private SweepTableCsv() {
    }

    public static String write(SweepTable table) {
        List<String> header = new ArrayList<>(List.of("cell", "cellKey"));
        header.addAll(table.axes());
        header.addAll(List.of("metric", "pointer", "unit", "better", "n", "missing", "mean", "sd", "ci95Low",
                "ci95High", "min", "max", "baselineMean", "deltaPercent", "improvementPercent"));
        boolean published = table.published() != null;
        if (published) {
            header.addAll(List.of("publishedRow", "publishedColumn", "published", "effect", "publishedEffect"));
        }
        StringWriter out = new StringWriter();
        try (CSVPrinter csv = new CSVPrinter(out, CSVFormat.RFC4180.builder()
                .setHeader(header.toArray(String[]::new)).setRecordSeparator("\n").setNullString("").get())) {
            for (SweepTable.Row r : table.rows()) {
                List<Object> row = new ArrayList<>(List.of(r.cell(), r.cellKey()));
                table.axes().forEach(axis -> row.add(r.levels().get(axis)));
                row.addAll(java.util.Arrays.asList(r.metric(), r.pointer(), r.unit(), r.better().json(), r.n(), r.missing(),
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
