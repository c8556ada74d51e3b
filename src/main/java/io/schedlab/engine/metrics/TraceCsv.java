package io.schedlab.engine.metrics;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;

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
