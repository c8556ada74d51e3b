package io.schedlab.web;

import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;

/**
 * The shape of every error body (RFC 9457 application/problem+json), for the OpenAPI contract;
 * at runtime Spring's ProblemDetail with these extension members is written.
 */
@Schema(name = "Problem", description = "RFC 9457 problem details; switch on `type`")
public record ProblemSchema(
        @Schema(description = "stable URI https://schedlab.io/problems/{kind}", example = "https://schedlab.io/problems/invalid-experiment") String type,
        @Schema(description = "short summary of the kind") String title,
        @Schema(description = "HTTP status") int status,
        @Schema(description = "what went wrong in this case") String detail,
        @Schema(description = "the request path") String instance,
        @Schema(description = "each bad field (JSON pointer into the body) or parameter; at most the first 100") List<ProblemError> errors,
        @Schema(description = "present when errors was cut at 100: how many problems there were in all") Integer totalErrors,
        @Schema(description = "payload-too-large: the configured limit in bytes") Long limit,
        @Schema(description = "results-not-ready: the experiment's current status") String experimentStatus,
        @Schema(description = "experiment-too-costly: estimated simulated events") Long estimatedEvents,
        @Schema(description = "experiment-too-costly: schedlab.limits.max-events") Long maxEvents,
        @Schema(description = "experiment-too-costly: estimated heap of the run, bytes") Long estimatedHeapBytes,
        @Schema(description = "experiment-too-costly: schedlab.limits.max-run-heap-mb, in bytes") Long maxHeapBytes,
        @Schema(description = "quota-exceeded: the quota reached, e.g. schedlab.quotas.max-queued-per-key") String quotaProperty,
        @Schema(description = "quota-exceeded: the quota's value") Long quota,
        @Schema(description = "quota-exceeded: what the API key has now (e.g. queued experiments)") Long current,
        @Schema(description = "quota-exceeded: what the refused submission would have added (a sweep's children each count)") Long requested) {

    /** One bad field: a JSON pointer (RFC 6901) into the submitted body, or a query/path parameter name. */
    @Schema(name = "ProblemError")
    public record ProblemError(
            @Schema(description = "JSON pointer into the submitted document, e.g. /vms/0/hardAffinity/1") String pointer,
            @Schema(description = "query or path parameter name") String parameter,
            String message) {
    }
}
