package io.schedlab.experiments.web;

import io.schedlab.experiments.ExperimentPage;
import java.util.List;

/** One page of experiments, newest first. */
record ExperimentPageResponse(List<ExperimentResponse> items, int page, int size, long totalItems, int totalPages) {

    static ExperimentPageResponse of(ExperimentPage p) {
        return new ExperimentPageResponse(p.items().stream().map(ExperimentResponse::of).toList(), p.page(), p.size(),
                p.totalItems(), p.totalPages());
    }
}
