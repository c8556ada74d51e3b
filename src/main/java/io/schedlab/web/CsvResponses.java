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
 * applicable") that {@code pandas.read_csv(url)} reads as they are; asked for with
 * {@code ?format=csv} or an Accept header preferring {@code text/csv} over JSON.
 */
public final class CsvResponses {
    /** The CSV media type. */
    public static final MediaType TEXT_CSV = MediaType.parseMediaType("text/csv");
    /** Value of the {@code format} query parameter asking for CSV. */
    public static final String FORMAT_CSV = "csv";

    private CsvResponses() {
    }

    /** True when {@code format=csv}, or the Accept header lists text/csv before any JSON type. */
    public static boolean wanted(String format, String accept) {
        if (format != null) {
            if (FORMAT_CSV.equalsIgnoreCase(format)) {
                return true;
            }
            if ("json".equalsIgnoreCase(format)) {
                return false;
            }
            throw new BadParameterException("format", "must be json or csv");
        }
        if (accept == null || accept.isBlank()) {
            return false;
        }
        List<MediaType> types = new java.util.ArrayList<>(MediaType.parseMediaTypes(accept));
        types.sort(java.util.Comparator.comparingDouble(MediaType::getQualityValue).reversed()); // stable
        for (MediaType t : types) {
            if (t.isCompatibleWith(TEXT_CSV) && !t.isWildcardType()) {
                return true;
            }
            if (t.isCompatibleWith(MediaType.APPLICATION_JSON)) {
                return false;
            }
        }
        return false;
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
