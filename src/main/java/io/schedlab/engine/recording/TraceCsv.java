package io.schedlab.engine.recording;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVPrinter;
import org.apache.commons.csv.CSVRecord;

/**
 * The trace CSV format shared by the service's trace files and the command line:
 * {@code time_ns,pcpu,event,vm,vcpu}, LF line ends, an empty cell where a column does not apply
 * (no pCPU for a VM start, no VM or vCPU for a tickle).
 */
public final class TraceCsv {
    /** Column names. */
    public static final String[] HEADER = {"time_ns", "pcpu", "event", "vm", "vcpu"};
    /** Commons CSV format with the header line. */
    public static final CSVFormat FORMAT = CSVFormat.DEFAULT.builder().setHeader(HEADER).setRecordSeparator("\n")
            .get();

    private TraceCsv() {
    }

    /** One record's cells: negative pCPU/vCPU ({@link TraceSink}'s "none") and a null VM become empty. */
    public static Object[] row(long timeNanos, int pcpu, String event, String vm, int vcpu) {
        return new Object[] {timeNanos, pcpu < 0 ? "" : pcpu, event, vm == null ? "" : vm, vcpu < 0 ? "" : vcpu};
    }

    /** Reads a trace CSV (with its header line) and hands every record to {@code sink}; returns how many. */
    public static long readInto(Reader csv, TraceSink sink) {
        long records = 0;
        try (CSVParser parser = CSVParser.parse(csv,
                CSVFormat.RFC4180.builder().setHeader().setSkipHeaderRecord(true).get())) {
            for (CSVRecord r : parser) {
                String pcpu = r.get("pcpu");
                String vm = r.get("vm");
                String vcpu = r.get("vcpu");
                sink.record(Long.parseLong(r.get("time_ns")), pcpu.isEmpty() ? -1 : Integer.parseInt(pcpu),
                        r.get("event"), vm.isEmpty() ? null : vm, vcpu.isEmpty() ? -1 : Integer.parseInt(vcpu));
                records++;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the trace CSV", e);
        }
        return records;
    }

    /** A sink printing every record to {@code printer}. */
    public static TraceSink printingTo(CSVPrinter printer) {
        return (t, p, e, vm, vcpu) -> {
            try {
                printer.printRecord(row(t, p, e, vm, vcpu));
            } catch (IOException ex) {
                throw new UncheckedIOException(ex);
            }
        };
    }
}
