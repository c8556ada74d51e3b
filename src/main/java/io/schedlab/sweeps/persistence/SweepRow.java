package io.schedlab.sweeps.persistence;

import java.time.Instant;
import java.util.UUID;

/**
 * A stored sweep: the definition as sent, its layout (axes, cells, baseline, metrics) as JSON, how many children it has,
 * once every child has finished the final table as JSON, and the API key name that submitted it (null without keys).
 */
public record SweepRow(UUID id, String name, String definition, String layoutJson, int total,
        Instant createdAt, boolean cancelRequested, Instant finishedAt, String tableJson, String owner) {
}
