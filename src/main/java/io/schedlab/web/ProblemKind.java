package io.schedlab.web;

import java.net.URI;
import org.springframework.http.HttpStatus;

/**
 * The stable problem types of the API (RFC 9457 {@code type} = {@code https://schedlab.io/problems/{kind}}):
 * clients switch on these, never on titles, messages or exception names.
 */
public enum ProblemKind {
    MALFORMED_REQUEST("malformed-request", "Malformed request", HttpStatus.BAD_REQUEST),
    INVALID_EXPERIMENT("invalid-experiment", "Invalid experiment", HttpStatus.UNPROCESSABLE_CONTENT),
    INVALID_SWEEP("invalid-sweep", "Invalid sweep", HttpStatus.UNPROCESSABLE_CONTENT),
    EXPERIMENT_TOO_COSTLY("experiment-too-costly", "Experiment too costly", HttpStatus.UNPROCESSABLE_CONTENT),
    NOT_FOUND("not-found", "Not found", HttpStatus.NOT_FOUND),
    UNAUTHORIZED("unauthorized", "API key missing or unknown", HttpStatus.UNAUTHORIZED),
    FORBIDDEN("forbidden", "Not allowed for this key's role", HttpStatus.FORBIDDEN),
    METHOD_NOT_ALLOWED("method-not-allowed", "Method not allowed", HttpStatus.METHOD_NOT_ALLOWED),
    NOT_ACCEPTABLE("not-acceptable", "Not acceptable", HttpStatus.NOT_ACCEPTABLE),
    CONFLICT("conflict", "Conflict", HttpStatus.CONFLICT),
    RESULTS_NOT_READY("results-not-ready", "Results not ready", HttpStatus.CONFLICT),
    TRACE_NOT_AVAILABLE("trace-not-available", "Trace not available", HttpStatus.NOT_FOUND),
    NO_RESULTS("no-results", "No results", HttpStatus.NOT_FOUND),
    PAYLOAD_TOO_LARGE("payload-too-large", "Payload too large", HttpStatus.CONTENT_TOO_LARGE),
    UNSUPPORTED_MEDIA_TYPE("unsupported-media-type", "Unsupported media type", HttpStatus.UNSUPPORTED_MEDIA_TYPE),
    QUEUE_FULL("queue-full", "Queue full", HttpStatus.TOO_MANY_REQUESTS),
    QUOTA_EXCEEDED("quota-exceeded", "API key quota reached", HttpStatus.TOO_MANY_REQUESTS),
    IDEMPOTENCY_KEY_REUSED("idempotency-key-reused", "Idempotency-Key used with another body",
            HttpStatus.UNPROCESSABLE_CONTENT),
    IDEMPOTENCY_KEY_IN_USE("idempotency-key-in-use", "Idempotency-Key still being processed", HttpStatus.CONFLICT),
    TOO_MANY_STREAMS("too-many-streams", "Too many progress streams", HttpStatus.TOO_MANY_REQUESTS),
    STORAGE_FULL("storage-full", "Storage full", HttpStatus.INSUFFICIENT_STORAGE),
    DATABASE_UNAVAILABLE("database-unavailable", "Database unavailable", HttpStatus.SERVICE_UNAVAILABLE),
    REQUEST_TIMEOUT("request-timeout", "Request body too slow", HttpStatus.REQUEST_TIMEOUT),
    TOO_MANY_CONNECTIONS("too-many-connections", "Too many connections from this client",
            HttpStatus.TOO_MANY_REQUESTS),
    INTERNAL_ERROR("internal-error", "Internal error", HttpStatus.INTERNAL_SERVER_ERROR);

    /** Prefix of every problem type URI. */
    public static final String BASE = "https://schedlab.io/problems/";

    private final String slug;
    private final String title;
    private final HttpStatus status;

    ProblemKind(String slug, String title, HttpStatus status) {
        this.slug = slug;
        this.title = title;
        this.status = status;
    }

    public URI type() {
        return URI.create(BASE + slug);
    }

    public String slug() {
        return slug;
    }

    public String title() {
        return title;
    }

    public HttpStatus status() {
        return status;
    }

    /** The generic kind for a status Spring produced itself (e.g. 405). */
    public static ProblemKind forStatus(int status) {
        return switch (status) {
            case 400 -> MALFORMED_REQUEST;
            case 401 -> UNAUTHORIZED;
            case 403 -> FORBIDDEN;
            case 404 -> NOT_FOUND;
            case 405 -> METHOD_NOT_ALLOWED;
            case 406 -> NOT_ACCEPTABLE;
            case 408 -> REQUEST_TIMEOUT;
            case 409 -> CONFLICT;
            case 413 -> PAYLOAD_TOO_LARGE;
            case 415 -> UNSUPPORTED_MEDIA_TYPE;
            case 422 -> INVALID_EXPERIMENT;
            case 429 -> QUEUE_FULL;
            case 503 -> DATABASE_UNAVAILABLE;
            default -> status >= 500 ? INTERNAL_ERROR : MALFORMED_REQUEST;
        };
    }
}
