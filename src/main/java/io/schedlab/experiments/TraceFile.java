package io.schedlab.experiments;

import io.schedlab.engine.recording.TraceCsv;
import io.schedlab.engine.recording.TraceSink;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.UUID;
import org.apache.commons.csv.CSVPrinter;

/**
 * Streams an experiment's trace to {@code ${schedlab.data-dir}/traces/{id}.csv}: records go to a
 * {@code .part} file as they come and the file gets its final name only when the run succeeds,
 * so a reader never sees half a trace. Holds at most {@code maxRecords}; later ones are dropped.
 */
public final class TraceFile implements TraceSink, AutoCloseable {


    private final Path target;
    private final Path partial;
    private final long maxRecords;
    private final CSVPrinter printer;
    private long records;
    private boolean closed;

    private TraceFile(Path target, Path partial, long maxRecords, CSVPrinter printer) {
        this.target = target;
        this.partial = partial;
        this.maxRecords = maxRecords;
        this.printer = printer;
    }

    /** Path of the finished trace of an experiment. */
    public static Path pathOf(Path dataDir, UUID experimentId) {
        return dataDir.resolve("traces").resolve(experimentId + ".csv");
    }

    /** Deletes an experiment's finished trace, if any (the experiment was deleted). */
    public static void delete(Path dataDir, UUID experimentId) {
        try {
            Files.deleteIfExists(pathOf(dataDir, experimentId));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete trace file of " + experimentId, e);
        }
    }

    public static TraceFile open(Path dataDir, UUID experimentId, long maxRecords) {
        Path target = pathOf(dataDir, experimentId);
        Path partial = target.resolveSibling(target.getFileName() + ".part");
        try {
            Files.createDirectories(target.getParent());
            BufferedWriter writer = Files.newBufferedWriter(partial, StandardCharsets.UTF_8);
            CSVPrinter printer = TraceCsv.FORMAT.print(writer); // the CLI's format
            return new TraceFile(target, partial, maxRecords, printer);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create trace file " + partial, e);
        }
    }

    @Override
    public void record(long timeNanos, int pcpu, String event, String vm, int vcpu) {
        if (records >= maxRecords) {
            return;
        }
        records++;
        try {
            printer.printRecord(TraceCsv.row(timeNanos, pcpu, event, vm, vcpu));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write trace file " + partial, e);
        }
    }

    public long records() {
        return records;
    }

    /** Closes the file and gives it its final name. */
    public void commit() {
        closeQuietly();
        try {
            Files.move(partial, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot publish trace file " + target, e);
        }
    }

    /** Closes and deletes the partial file (run failed, cancelled or handed back). */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closeQuietly();
        try {
            Files.deleteIfExists(partial);
        } catch (IOException e) {
            // nothing else to do: a stale .part file is never served
        }
    }

    private void closeQuietly() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            printer.close(true);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close trace file " + partial, e);
        }
    }
}
