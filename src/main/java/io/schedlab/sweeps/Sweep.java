package io.schedlab.sweeps;

import io.schedlab.engine.sweepgrid.SweepTable;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;

/**
 * What a client sees of a sweep: identity, status, progress as children finished of total (and
 * per status), and once every child has finished the table (null before, and in lists).
 */
public record Sweep(UUID id, String name, SweepStatus status, int total, long done,
        Map<String, Long> children, Instant createdAt, Instant finishedAt, boolean cancelRequested, SweepTable table) {

    /** Children finished over all children, 0..1. */
    public double progress() {
        return total == 0 ? 1 : (double) done / total;
    }
}
