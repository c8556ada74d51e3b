package io.schedlab.webhooks;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.EnumMap;
import java.util.Map;

/**
 * Micrometer counters: {@code schedlab.webhooks.attempts} by {@code outcome} (delivered, refused,
 * unreachable) and {@code schedlab.webhooks.deliveries} by {@code outcome} (delivered, gave_up).
 */
final class WebhookMetrics {

    private final Map<AttemptOutcome, Counter> attempts = new EnumMap<>(AttemptOutcome.class);
    private final Map<DeliveryState, Counter> deliveries = new EnumMap<>(DeliveryState.class);

    WebhookMetrics(MeterRegistry registry) {
        for (AttemptOutcome o : AttemptOutcome.values()) {
            attempts.put(o, Counter.builder("schedlab.webhooks.attempts").description("Attempts to post a webhook event")
                    .tag("outcome", o.name().toLowerCase()).register(registry));
        }
        for (DeliveryState s : new DeliveryState[] {DeliveryState.DELIVERED, DeliveryState.GAVE_UP}) {
            deliveries.put(s, Counter.builder("schedlab.webhooks.deliveries")
                    .description("Webhook deliveries ended, delivered or given up").tag("outcome", s.name().toLowerCase())
                    .register(registry));
        }
    }

    void attempt(AttemptOutcome outcome) {
        attempts.get(outcome).increment();
    }

    void ended(DeliveryState state) {
        deliveries.get(state).increment();
    }
}
