package io.schedlab.sweeps.web;

import io.schedlab.sweeps.SweepService;
import java.util.List;

/** One page of sweeps, newest first (items without their tables). */
record SweepPageResponse(List<SweepResponse> items, int page, int size, long totalItems, int totalPages) {

    static SweepPageResponse of(SweepService.SweepPage p) {
        return new SweepPageResponse(p.items().stream().map(SweepResponse::of).toList(), p.page(), p.size(),
                p.totalItems(), p.totalPages());
    }
}
