package io.schedlab.webhooks.web;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.schedlab.webhooks.Attempt;
import io.schedlab.webhooks.CompletionEvent;
import io.schedlab.webhooks.Delivery;
import io.schedlab.webhooks.DeliveryState;
import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;
import tools.jackson.databind.json.JsonMapper;

/** The completion webhook deliveries of one experiment or sweep, with every attempt. */
@Schema(name = "DeliveryLog", description = "the webhook deliveries of an experiment or sweep (one per notify target)")
record DeliveryLogResponse(
        @Schema(description = "the experiment's or sweep's id", requiredMode = Schema.RequiredMode.REQUIRED)
        UUID subject,
        @Schema(description = "its deliveries, oldest first; empty when it was submitted without notify",
                requiredMode = Schema.RequiredMode.REQUIRED)
        List<DeliveryResponse> deliveries) {

    /** One delivery. */
    @Schema(name = "Delivery", description = "one notify target and its delivery")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record DeliveryResponse(
            @Schema(description = "the delivery id: the event's id, the same on every attempt",
                    requiredMode = Schema.RequiredMode.REQUIRED)
            UUID id,
            @Schema(description = "notify.url as submitted", requiredMode = Schema.RequiredMode.REQUIRED)
            String url,
            @Schema(description = "WAITING (not finished yet), SENDING (attempts under way), DELIVERED (a 2xx answer),"
                    + " GAVE_UP (schedlab.webhooks.max-attempts failed) or DROPPED (the experiment was deleted first)",
                    requiredMode = Schema.RequiredMode.REQUIRED)
            DeliveryState state,
            @Schema(description = "when the notify target was recorded (the submission)",
                    requiredMode = Schema.RequiredMode.REQUIRED)
            Instant createdAt,
            @Schema(description = "when it was DELIVERED or GAVE_UP; absent before")
            Instant finishedAt,
            @Schema(description = "the event as posted on every attempt; absent while WAITING")
            CompletionEvent event,
            @Schema(description = "the attempts so far, first first (at most schedlab.webhooks.max-attempts)",
                    requiredMode = Schema.RequiredMode.REQUIRED)
            List<AttemptResponse> attempts) {
    }

    /** One attempt. */
    @Schema(name = "DeliveryAttempt", description = "one attempt to post the event")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record AttemptResponse(
            @Schema(description = "1 for the first attempt", requiredMode = Schema.RequiredMode.REQUIRED)
            int attempt,
            @Schema(description = "when the request started", requiredMode = Schema.RequiredMode.REQUIRED)
            Instant startedAt,
            @Schema(description = "time until the answer or the failure, in milliseconds",
                    requiredMode = Schema.RequiredMode.REQUIRED)
            long durationMs,
            @Schema(description = "the receiver's HTTP status; absent when none came")
            Integer statusCode,
            @Schema(description = "DELIVERED (2xx), REFUSED (any other status, redirects included: they are not"
                    + " followed) or UNREACHABLE (no connection or no answer within schedlab.webhooks.request-timeout)",
                    requiredMode = Schema.RequiredMode.REQUIRED)
            String outcome,
            @Schema(description = "why no answer came; absent when one did")
            String error) {

        static AttemptResponse of(Attempt a) {
            return new AttemptResponse(a.attempt(), a.startedAt(), a.durationMs(), a.statusCode(), a.outcome().name(),
                    a.error());
        }
    }

    private static final JsonMapper JSON = JsonMapper.builder().build();

    static DeliveryLogResponse of(UUID subject, List<Delivery> deliveries, Function<UUID, List<Attempt>> attempts) {
        return new DeliveryLogResponse(subject, deliveries.stream().map(d -> new DeliveryResponse(d.id(), d.url(),
                d.state(), d.createdAt(), d.finishedAt(),
                d.event() == null ? null : JSON.readValue(d.event(), CompletionEvent.class),
                attempts.apply(d.id()).stream().map(AttemptResponse::of).toList())).toList());
    }
}
