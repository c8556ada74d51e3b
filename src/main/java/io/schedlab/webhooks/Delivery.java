package io.schedlab.webhooks;

import java.time.Instant;
import java.util.UUID;

/**
 * One notify target of an experiment or sweep and where its delivery stands.
 *
 * @param id         the delivery id: the event's {@code id}, the receiver's key for de-duplication
 * @param kind       "experiment" or "sweep"
 * @param subjectId  the experiment's or sweep's id
 * @param owner      the API key that submitted it (null without keys); its secret signs the event
 * @param url        where the event is posted
 * @param state      where the delivery stands
 * @param event      the event's JSON, exactly as posted on every attempt (null while WAITING)
 * @param createdAt  when the target was recorded (the submission)
 * @param finishedAt when it was DELIVERED or GAVE_UP (null before)
 */
public record Delivery(UUID id, String kind, UUID subjectId, String owner, String url, DeliveryState state,
        String event, Instant createdAt, Instant finishedAt) {
}
