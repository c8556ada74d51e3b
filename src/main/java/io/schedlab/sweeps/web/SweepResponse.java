package io.schedlab.sweeps.web;

import io.schedlab.engine.sweepgrid.SweepTable;
import io.schedlab.sweeps.Sweep;
import io.schedlab.sweeps.SweepService;
import io.schedlab.sweeps.SweepStatus;
import io.swagger.v3.oas.annotations.media.Schema;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;

/** A sweep as the API returns it: status, progress (done of total, per child status) and, once finished, the table. */
@Schema(description = "A sweep: status, progress over its child experiments and, once every child has finished, the table")
record SweepResponse(UUID id, String name, SweepStatus status,
        @Schema(description = "child experiments in all (cells x repetitions)") int total,
        @Schema(description = "children finished (SUCCEEDED, FAILED or CANCELLED)") long done,
        @Schema(description = "done / total, 0..1") double progress,
        @Schema(description = "number of children per experiment status") Map<String, Long> children,
        Instant createdAt, Instant finishedAt, boolean cancelRequested,
        @Schema(description = "the table once every child has finished; null before (see links.table for the table so far)")
        SweepTable table, Links links) {

    /** Where to go next; {@code experiments} lists the children (label sweep:ID). */
    @Schema(name = "SweepLinks")
    record Links(String self, String table, String csv, String definition, String experiments, String cancel) {
    }

    static SweepResponse of(Sweep s) {
        String self = "/api/v1/sweeps/" + s.id();
        String children = "/api/v1/experiments?label="
                + URLEncoder.encode(SweepService.SWEEP_LABEL + ":" + s.id(), StandardCharsets.UTF_8) + "&size=100";
        return new SweepResponse(s.id(), s.name(), s.status(), s.total(), s.done(), s.progress(), s.children(),
                s.createdAt(), s.finishedAt(), s.cancelRequested(), s.table(),
                new Links(self, self + "/table", self + "/table.csv", self + "/definition", children,
                        self + "/cancel"));
    }
}
