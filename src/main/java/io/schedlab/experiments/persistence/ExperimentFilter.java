package io.schedlab.experiments.persistence;

import io.schedlab.experiments.ExperimentStatus;
import java.util.Map;

/**
 * List filter: optional status, name substring (case-insensitive), labels that must all match
 * exactly; zero-based page of at most 100 rows.
 */
public record ExperimentFilter(ExperimentStatus status, String nameContains, Map<String, String> labels, int page,
        int size) {
}
