package io.schedlab.webhooks;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

/**
 * Posts one event with the JDK's {@link HttpClient}: HTTP/1.1, redirects never followed (a 3xx is a
 * failed attempt), the connect and request timeouts of {@code schedlab.webhooks.*}, the answer's body
 * discarded.
 */
final class WebhookSender {

    /** Header carrying the delivery id (also the event's id), for receivers that de-duplicate before parsing. */
    static final String DELIVERY_HEADER = "X-SchedLab-Delivery";
    private static final int MAX_ERROR_LENGTH = 500;

    private final HttpClient http;
    private final Duration requestTimeout;

    WebhookSender(Duration connectTimeout, Duration requestTimeout) {
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NEVER).connectTimeout(connectTimeout).build();
        this.requestTimeout = requestTimeout;
    }

    /** What an attempt brought: the status code (null: no answer) and, without one, why. */
    record Answer(Instant startedAt, long durationMs, Integer statusCode, String error) {
        AttemptOutcome outcome() {
            if (statusCode == null) {
                return AttemptOutcome.UNREACHABLE;
            }
            return statusCode >= 200 && statusCode < 300 ? AttemptOutcome.DELIVERED : AttemptOutcome.REFUSED;
        }
    }

    Answer post(String url, UUID deliveryId, String event, String secret) throws InterruptedException {
        byte[] body = event.getBytes(StandardCharsets.UTF_8);
        HttpRequest request = HttpRequest.newBuilder(URI.create(url)).timeout(requestTimeout)
                .header("Content-Type", CompletionEvent.MEDIA_TYPE + "; charset=utf-8")
                .header("User-Agent", "SchedLab-Webhooks")
                .header(DELIVERY_HEADER, deliveryId.toString())
                .header(EventSignature.HEADER, EventSignature.of(secret, body))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
        Instant started = Instant.now();
        long t0 = System.nanoTime();
        try {
            int status = http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
            return new Answer(started, millisSince(t0), status, null);
        } catch (HttpTimeoutException e) {
            return new Answer(started, millisSince(t0), null, "no answer within the timeout");
        } catch (ConnectException e) {
            return new Answer(started, millisSince(t0), null, "could not connect");
        } catch (IOException e) {
            String message = "I/O error: " + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
            return new Answer(started, millisSince(t0), null,
                    message.length() > MAX_ERROR_LENGTH ? message.substring(0, MAX_ERROR_LENGTH) : message);
        }
    }

    private static long millisSince(long t0) {
        return (System.nanoTime() - t0) / 1_000_000;
    }
}
