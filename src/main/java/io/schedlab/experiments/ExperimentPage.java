package io.schedlab.experiments;

import java.util.List;

/** One page of experiments, newest first, with the total count of matches. */
public record ExperimentPage(List<Experiment> items, int page, int size, long totalItems, int totalPages) {
}
