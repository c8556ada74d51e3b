package io.schedlab.webhooks;

import java.time.Instant;
import java.util.UUID;

/**
 * One attempt of a SENDING delivery, run by its "deliver-webhook" task: posts the stored event signed
 * with the owner's current secret and records the attempt. A failed attempt throws, and db-scheduler's
 * failure handler schedules the next one (see {@link WebhooksConfiguration}).
 */
final class WebhookDelivery {

    private final DeliveryStore store;
    private final WebhookSecrets secrets;
    private final WebhookSender sender;
    private final WebhookMetrics metrics;

    WebhookDelivery(DeliveryStore store, WebhookSecrets secrets, WebhookSender sender, WebhookMetrics metrics) {
        this.store = store;
        this.secrets = secrets;
        this.sender = sender;
        this.metrics = metrics;
    }

    /** Posts the event once; throws {@link AttemptFailedException} unless the receiver answered 2xx. */
    void attempt(UUID id) throws InterruptedException {
        Delivery delivery = store.find(id);
        if (delivery == null || delivery.state() != DeliveryState.SENDING) {
            return; // already ended
        }
        WebhookSender.Answer answer = sender.post(delivery.url(), id, delivery.event(),
                secrets.current(delivery.owner()).value());
        int n = store.addAttempt(id, answer.startedAt(), answer.durationMs(), answer.statusCode(), answer.outcome(),
                answer.error());
        metrics.attempt(answer.outcome());
        if (answer.outcome() != AttemptOutcome.DELIVERED) {
            throw new AttemptFailedException("attempt " + n + " of delivery " + id + ": "
                    + (answer.statusCode() == null ? answer.error() : "answered " + answer.statusCode()));
        }
        store.finish(id, DeliveryState.DELIVERED, Instant.now());
        metrics.ended(DeliveryState.DELIVERED);
    }

    /** Ends a delivery whose last attempt failed. */
    void giveUp(UUID id) {
        store.finish(id, DeliveryState.GAVE_UP, Instant.now());
        metrics.ended(DeliveryState.GAVE_UP);
    }

    /** An attempt the receiver did not accept. */
    static final class AttemptFailedException extends RuntimeException {
        AttemptFailedException(String message) {
            super(message, null, false, false);
        }
    }
}
