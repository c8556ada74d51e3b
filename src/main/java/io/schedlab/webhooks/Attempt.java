package io.schedlab.webhooks;

import java.time.Instant;

/**
 * One attempt to post a delivery's event.
 *
 * @param attempt    1 for the first
 * @param startedAt  when the request started
 * @param durationMs how long until the answer or the failure, in milliseconds
 * @param statusCode the receiver's HTTP status (null: no answer)
 * @param outcome    how it ended
 * @param error      why no answer came (null when one did)
 */
public record Attempt(int attempt, Instant startedAt, long durationMs, Integer statusCode, AttemptOutcome outcome,
        String error) {
}
