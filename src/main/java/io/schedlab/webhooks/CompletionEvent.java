package io.schedlab.webhooks;

import io.swagger.v3.oas.annotations.media.Schema;
import java.util.UUID;

/**
 * The event posted when an experiment or sweep has finished: a CloudEvents 1.0 event in structured
 * mode (cloudevents/spec, spec.md "Required Attributes" and json-format.md), sent as
 * {@code application/cloudevents+json}.
 */
@Schema(name = "CompletionEvent", description = "CloudEvents 1.0 event (structured JSON mode) posted to notify.url"
        + " once an experiment or sweep has finished, signed in X-SchedLab-Signature")
public record CompletionEvent(
        @Schema(description = "CloudEvents version: always 1.0", requiredMode = Schema.RequiredMode.REQUIRED)
        String specversion,
        @Schema(description = "the delivery id, the same on every attempt: a receiver that has seen it already"
                + " should ignore the event (deliveries are at least once)", requiredMode = Schema.RequiredMode.REQUIRED)
        String id,
        @Schema(description = "URI reference of the collection the subject belongs to: /api/v1/experiments or"
                + " /api/v1/sweeps", requiredMode = Schema.RequiredMode.REQUIRED)
        String source,
        @Schema(description = "io.schedlab.experiment.finished or io.schedlab.sweep.finished",
                requiredMode = Schema.RequiredMode.REQUIRED)
        String type,
        @Schema(description = "the experiment's or sweep's id", requiredMode = Schema.RequiredMode.REQUIRED)
        String subject,
        @Schema(description = "when the subject finished (RFC 3339, UTC)", format = "date-time",
                requiredMode = Schema.RequiredMode.REQUIRED)
        String time,
        @Schema(description = "media type of data: always application/json", requiredMode = Schema.RequiredMode.REQUIRED)
        String datacontenttype,
        @Schema(description = "what finished and how", requiredMode = Schema.RequiredMode.REQUIRED)
        Data data) {

    static final String SPEC_VERSION = "1.0";
    /** The event's media type in structured mode (json-format.md section 3). */
    public static final String MEDIA_TYPE = "application/cloudevents+json";

    /** What finished and how. */
    @Schema(name = "CompletionEventData", description = "the finished experiment or sweep")
    public record Data(
            @Schema(description = "the experiment's or sweep's id", requiredMode = Schema.RequiredMode.REQUIRED)
            UUID id,
            @Schema(description = "its final status: SUCCEEDED, FAILED or CANCELLED",
                    requiredMode = Schema.RequiredMode.REQUIRED)
            String status,
            @Schema(description = "where to read it", requiredMode = Schema.RequiredMode.REQUIRED)
            Links links) {
    }

    /** Paths of the finished subject. */
    @Schema(name = "CompletionEventLinks", description = "paths (relative to the service) of the finished subject")
    public record Links(
            @Schema(description = "the experiment or sweep", requiredMode = Schema.RequiredMode.REQUIRED)
            String self,
            @Schema(description = "its results: an experiment's result document, a sweep's table",
                    requiredMode = Schema.RequiredMode.REQUIRED)
            String results,
            @Schema(description = "its HTML report", requiredMode = Schema.RequiredMode.REQUIRED)
            String report) {
    }

    /** The event of a finished experiment or sweep; {@code kind} is "experiment" or "sweep". */
    static CompletionEvent of(UUID deliveryId, String kind, UUID subject, String status, java.time.Instant time) {
        String collection = "/api/v1/" + kind + "s";
        String self = collection + "/" + subject;
        String results = self + (kind.equals("sweep") ? "/table" : "/results");
        return new CompletionEvent(SPEC_VERSION, deliveryId.toString(), collection, "io.schedlab." + kind + ".finished",
                subject.toString(), time.toString(), "application/json",
                new Data(subject, status, new Links(self, results, self + "/report")));
    }
}
