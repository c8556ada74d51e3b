package io.schedlab.experiments.persistence;

import java.util.List;

/** Listing queries that select only the light columns. */
public interface ExperimentQueries {

    /** Rows matching the filter, newest first (created_at, then id, descending). */
    List<ExperimentRow> findRows(ExperimentFilter filter);

    /** How many rows match the filter (for the page's total). */
    long countRows(ExperimentFilter filter);
}
