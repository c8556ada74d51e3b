package io.schedlab.web;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.List;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;
import org.springframework.http.MediaType;

/**
 * Tidy CSV answers (one row per item, a header line, LF line ends, an empty cell for "not
 * applicable") that {@code pandas.read_csv(url)} reads as they are; each served by an operation of
 * its own on a {@code .csv} path beside the JSON one.
 */
public final class CsvResponses {
    /** The CSV media type. */
    public static final MediaType TEXT_CSV = MediaType.parseMediaType("text/csv");

    private CsvResponses() {
    }

    /**
     * The JSON operations answer JSON only: their CSV is an operation of its own on a {@code .csv} path, so that a
     * client generated from openapi.yaml returns each as one type. {@code format=json} is accepted as it always
     * was; any other {@code format} is a 400 naming the parameter and where the CSV is.
     */
    public static void rejectFormatOtherThanJson(String format, String csvPath) {
        if (format != null && !"json".equalsIgnoreCase(format)) {
            throw new BadParameterException("format", "this operation answers JSON only; the CSV is GET " + csvPath);
        }
    }

    /** The rows under the header; a null cell prints empty. */
    public static String table(List<String> header, List<List<Object>> rows) {
        StringWriter out = new StringWriter();
        try (CSVPrinter printer = CSVFormat.DEFAULT.builder().setHeader(header.toArray(String[]::new))
                .setRecordSeparator("\n").setNullString("").get().print(out)) {
            for (List<Object> row : rows) {
                printer.printRecord(row);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }
}
