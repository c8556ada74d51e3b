package io.schedlab.sweeps.persistence;

import java.time.Instant;
import java.util.UUID;

/**
 * A stored sweep: the definition as sent, its layout (axes, cells, baseline, metrics) as JSON, how many children it has,
 * and once every child has finished the final table as JSON.
 */
public record SweepRow(UUID id, String name, String definition, String layoutJson, int total,
        Instant createdAt, boolean cancelRequested, Instant finishedAt, String tableJson) {
}
