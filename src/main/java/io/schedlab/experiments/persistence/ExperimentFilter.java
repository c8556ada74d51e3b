package io.schedlab.experiments.persistence;

import io.schedlab.experiments.status.ExperimentStatus;
import java.util.Map;

/**
 * List filter: optional status, name substring (case-insensitive), labels that must all match
 * exactly, owner (null = everyone's); zero-based page of at most 100 rows.
 */
public record ExperimentFilter(ExperimentStatus status, String nameContains, Map<String, String> labels, int page,
        int size, String owner) {

    public ExperimentFilter(ExperimentStatus status, String nameContains, Map<String, String> labels, int page,
            int size) {
        this(status, nameContains, labels, page, size, null);
    }

    /** The same filter restricted to one owner. */
    public ExperimentFilter ownedBy(String owner) {
        return new ExperimentFilter(status, nameContains, labels, page, size, owner);
    }
}
