package io.schedlab.web;

import io.schedlab.access.NotAllowedException;
import io.schedlab.database.DatabaseOutage;
import io.schedlab.engine.spec.Violation;
import io.schedlab.experiments.ExperimentConflictException;
import io.schedlab.experiments.ExperimentNotFoundException;
import io.schedlab.experiments.IdempotencyConflictException;
import io.schedlab.experiments.IdempotencyKeyReusedException;
import io.schedlab.experiments.InvalidIdempotencyKeyException;
import io.schedlab.experiments.QuotaExceededException;
import io.schedlab.experiments.ExperimentTooCostlyException;
import io.schedlab.experiments.InvalidExperimentException;
import io.schedlab.experiments.MalformedExperimentException;
import io.schedlab.experiments.NoResultsException;
import io.schedlab.experiments.QueueFullException;
import io.schedlab.experiments.ResultsNotReadyException;
import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.HttpMediaTypeNotAcceptableException;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.ServletWebRequest;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/**
 * Maps every failure to RFC 9457 problem details with a stable {@link ProblemKind} type URI.
 * Validation problems carry {@code errors: [{pointer, message}]} (JSON pointers into the body)
 * or {@code [{parameter, message}]} for query/path parameters. Only server faults give a 500.
 */
@RestControllerAdvice
public class ProblemDetailsAdvice extends ResponseEntityExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(ProblemDetailsAdvice.class);
    /** Most entries of an {@code errors} list; {@code totalErrors} then gives the full count. */
    public static final int MAX_ERRORS = 100;

    @ExceptionHandler(MalformedExperimentException.class)
    ResponseEntity<ProblemDetail> malformed(MalformedExperimentException e, HttpServletRequest request) {
        ProblemDetail p = problem(ProblemKind.MALFORMED_REQUEST, e.getMessage(), request);
        setErrors(p, e.violations());
        return respond(p, null);
    }

    @ExceptionHandler(InvalidExperimentException.class)
    ResponseEntity<ProblemDetail> invalid(InvalidExperimentException e, HttpServletRequest request) {
        List<Violation> vs = e.violations();
        String detail = vs.size() == 1 ? at(vs.get(0)) : vs.size() + " problems, first: " + at(vs.get(0));
        ProblemDetail p = problem(ProblemKind.INVALID_EXPERIMENT, detail, request);
        setErrors(p, vs);
        return respond(p, null);
    }

    /** A multipart body (no endpoint takes one) that does not even parse as multipart. */
    @ExceptionHandler(org.springframework.web.multipart.MultipartException.class)
    ResponseEntity<ProblemDetail> multipart(Exception e, HttpServletRequest request) {
        return respond(problem(ProblemKind.UNSUPPORTED_MEDIA_TYPE,
                "multipart bodies are not accepted; send the experiment as application/json", request), null);
    }

    @ExceptionHandler(ExperimentTooCostlyException.class)
    ResponseEntity<ProblemDetail> tooCostly(ExperimentTooCostlyException e, HttpServletRequest request) {
        ProblemDetail p = problem(ProblemKind.EXPERIMENT_TOO_COSTLY, e.getMessage(), request);
        p.setProperty("estimatedEvents", e.estimate().events());
        p.setProperty("maxEvents", e.maxEvents());
        p.setProperty("estimatedHeapBytes", e.estimate().heapBytes());
        p.setProperty("maxHeapBytes", e.maxHeapBytes());
        return respond(p, null);
    }

    @ExceptionHandler(BadParameterException.class)
    ResponseEntity<ProblemDetail> badParameter(BadParameterException e, HttpServletRequest request) {
        ProblemDetail p = problem(ProblemKind.MALFORMED_REQUEST, e.getMessage(), request);
        p.setProperty("errors", List.of(Map.of("parameter", e.parameter(), "message", e.reason())));
        return respond(p, null);
    }

    @ExceptionHandler(ExperimentNotFoundException.class)
    ResponseEntity<ProblemDetail> notFound(ExperimentNotFoundException e, HttpServletRequest request) {
        return respond(problem(ProblemKind.NOT_FOUND, e.getMessage(), request), null);
    }

    @ExceptionHandler(io.schedlab.experiments.StorageFullException.class)
    ResponseEntity<ProblemDetail> storageFull(io.schedlab.experiments.StorageFullException e, HttpServletRequest request) {
        ProblemDetail p = problem(ProblemKind.STORAGE_FULL, e.getMessage(), request);
        p.setProperty("limitProperty", "schedlab.limits.min-free-disk-mb");
        return respond(p, retryAfter(java.time.Duration.ofSeconds(60)));
    }

    @ExceptionHandler(NotAllowedException.class)
    ResponseEntity<ProblemDetail> notAllowed(NotAllowedException e, HttpServletRequest request) {
        return respond(problem(ProblemKind.FORBIDDEN, e.getMessage(), request), null);
    }

    @ExceptionHandler(TraceNotAvailableException.class)
    ResponseEntity<ProblemDetail> noTrace(TraceNotAvailableException e, HttpServletRequest request) {
        return respond(problem(ProblemKind.TRACE_NOT_AVAILABLE, e.getMessage(), request), null);
    }

    @ExceptionHandler(ExperimentConflictException.class)
    ResponseEntity<ProblemDetail> conflict(ExperimentConflictException e, HttpServletRequest request) {
        return respond(problem(ProblemKind.CONFLICT, e.getMessage(), request), null);
    }

    @ExceptionHandler(NoResultsException.class)
    ResponseEntity<ProblemDetail> noResults(NoResultsException e, HttpServletRequest request) {
        return respond(problem(ProblemKind.NO_RESULTS, e.getMessage(), request), null);
    }

    @ExceptionHandler(ResultsNotReadyException.class)
    ResponseEntity<ProblemDetail> notReady(ResultsNotReadyException e, HttpServletRequest request) {
        ProblemDetail p = problem(ProblemKind.RESULTS_NOT_READY, e.getMessage(), request);
        p.setProperty("experimentStatus", e.status().name());
        return respond(p, null);
    }

    @ExceptionHandler(QueueFullException.class)
    ResponseEntity<ProblemDetail> queueFull(QueueFullException e, HttpServletRequest request) {
        return respond(problem(ProblemKind.QUEUE_FULL, e.getMessage(), request), retryAfter(e.retryAfter()));
    }

    @ExceptionHandler(QuotaExceededException.class)
    ResponseEntity<ProblemDetail> quotaExceeded(QuotaExceededException e, HttpServletRequest request) {
        ProblemDetail p = problem(ProblemKind.QUOTA_EXCEEDED, e.getMessage(), request);
        p.setProperty("quotaProperty", e.limit());
        p.setProperty("quota", e.max());
        p.setProperty("current", e.current());
        p.setProperty("requested", e.requested());
        return respond(p, retryAfter(e.retryAfter()));
    }

    @ExceptionHandler(IdempotencyKeyReusedException.class)
    ResponseEntity<ProblemDetail> keyReused(IdempotencyKeyReusedException e, HttpServletRequest request) {
        return respond(problem(ProblemKind.IDEMPOTENCY_KEY_REUSED, e.getMessage(), request), null);
    }

    @ExceptionHandler(IdempotencyConflictException.class)
    ResponseEntity<ProblemDetail> keyInUse(IdempotencyConflictException e, HttpServletRequest request) {
        return respond(problem(ProblemKind.IDEMPOTENCY_KEY_IN_USE, e.getMessage(), request),
                retryAfter(java.time.Duration.ofSeconds(1)));
    }

    @ExceptionHandler(InvalidIdempotencyKeyException.class)
    ResponseEntity<ProblemDetail> badKey(InvalidIdempotencyKeyException e, HttpServletRequest request) {
        ProblemDetail p = problem(ProblemKind.MALFORMED_REQUEST, e.getMessage(), request);
        p.setProperty("errors", List.of(Map.of("parameter", "Idempotency-Key", "message", e.getMessage())));
        return respond(p, null);
    }

    @ExceptionHandler(TooManyStreamsException.class)
    ResponseEntity<ProblemDetail> tooManyStreams(TooManyStreamsException e, HttpServletRequest request) {
        return respond(problem(ProblemKind.TOO_MANY_STREAMS, e.getMessage(), request),
                retryAfter(java.time.Duration.ofSeconds(5)));
    }

    @ExceptionHandler(Exception.class)
    ResponseEntity<ProblemDetail> unexpected(Exception e, HttpServletRequest request) {
        PayloadTooLargeException tooLarge = findCause(e, PayloadTooLargeException.class);
        if (tooLarge != null) {
            return payloadTooLarge(tooLarge, request);
        }
        BodyTimeoutException slow = findCause(e, BodyTimeoutException.class);
        if (slow != null) {
            return bodyTimeout(slow, request);
        }
        if (DatabaseOutage.isCause(e)) {
            log.warn("database unreachable on {} {}: {}", request.getMethod(), request.getRequestURI(),
                    DatabaseOutage.describe(e));
            return respond(problem(ProblemKind.DATABASE_UNAVAILABLE, "the database cannot be reached; nothing of this"
                    + " request was stored; retry after the Retry-After seconds", request),
                    retryAfter(DatabaseOutage.RETRY_AFTER));
        }
        log.error("unhandled error on {} {}", request.getMethod(), request.getRequestURI(), e);
        return respond(problem(ProblemKind.INTERNAL_ERROR, "an internal error occurred; it has been logged", request),
                null);
    }

    @Override
    protected ResponseEntity<Object> handleHttpMessageNotReadable(HttpMessageNotReadableException ex,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        PayloadTooLargeException tooLarge = findCause(ex, PayloadTooLargeException.class);
        HttpServletRequest servlet = ((ServletWebRequest) request).getRequest();
        if (tooLarge != null) {
            return ResponseEntity.status(ProblemKind.PAYLOAD_TOO_LARGE.status())
                    .headers(h -> h.set(HttpHeaders.CONNECTION, "close"))
                    .body(payloadTooLarge(tooLarge, servlet).getBody());
        }
        BodyTimeoutException slow = findCause(ex, BodyTimeoutException.class);
        if (slow != null) {
            return ResponseEntity.status(ProblemKind.REQUEST_TIMEOUT.status())
                    .headers(h -> h.set(HttpHeaders.CONNECTION, "close"))
                    .body(bodyTimeout(slow, servlet).getBody());
        }
        boolean empty = ex.getMessage() != null && ex.getMessage().startsWith("Required request body is missing");
        String reason = empty ? "the request body is empty; send an experiment as a JSON object"
                : "the request body could not be read";
        ProblemDetail p = problem(ProblemKind.MALFORMED_REQUEST, reason, servlet);
        p.setProperty("errors", List.of(Map.of("pointer", "", "message", reason)));
        return ResponseEntity.badRequest().contentType(org.springframework.http.MediaType.APPLICATION_PROBLEM_JSON).body(p);
    }

    @Override
    protected ResponseEntity<Object> handleTypeMismatch(org.springframework.beans.TypeMismatchException ex,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        String name = ex instanceof MethodArgumentTypeMismatchException m ? m.getName() : ex.getPropertyName();
        String reason = "'" + ex.getValue() + "' is not a valid value";
        HttpServletRequest servlet = ((ServletWebRequest) request).getRequest();
        ProblemDetail p = problem(ProblemKind.MALFORMED_REQUEST, "parameter '" + name + "': " + reason, servlet);
        p.setProperty("errors", List.of(Map.of("parameter", String.valueOf(name), "message", reason)));
        return ResponseEntity.badRequest().body(p);
    }

    /** A request without Content-Type says so, instead of Spring's "Content-Type 'null' is not supported". */
    @Override
    protected ResponseEntity<Object> handleHttpMediaTypeNotSupported(HttpMediaTypeNotSupportedException ex,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        if (ex.getContentType() == null) {
            ex.getBody().setDetail("a request body needs Content-Type: application/json");
        }
        return super.handleHttpMediaTypeNotSupported(ex, headers, status, request);
    }

    /**
     * 406 written straight to the response: the Accept header that failed negotiation would fail it
     * again for the problem body (Spring then sends an empty 406), and it may not even parse
     * ({@code Accept: ;;;}). No "Accept" response header (a request header; RFC 9110 defines none for 406).
     */
    @Override
    protected ResponseEntity<Object> handleHttpMediaTypeNotAcceptable(HttpMediaTypeNotAcceptableException ex,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        ServletWebRequest servlet = (ServletWebRequest) request;
        if (servlet.getResponse() == null || servlet.getResponse().isCommitted()) {
            return null;
        }
        try {
            ProblemWriter.write(servlet.getResponse(), ProblemKind.NOT_ACCEPTABLE, "this resource is available as "
                    + ex.getSupportedMediaTypes() + " (and problems as application/problem+json)",
                    ProblemWriter.safeInstance(servlet.getRequest().getRequestURI()), null);
        } catch (java.io.IOException e) {
            log.debug("could not write a 406 answer", e);
        }
        return null;
    }

    /** Gives Spring's own problems (405, 415, 406, 404, missing parameters...) our type URIs and titles. */
    @Override
    protected ResponseEntity<Object> createResponseEntity(Object body, HttpHeaders headers, HttpStatusCode statusCode,
            WebRequest request) {
        if (body instanceof ProblemDetail p) {
            ProblemKind kind = ProblemKind.forStatus(statusCode.value());
            p.setType(kind.type());
            p.setTitle(kind.title());
            if (request instanceof ServletWebRequest s) {
                String instance = ProblemWriter.safeInstance(s.getRequest().getRequestURI());
                p.setInstance(instance == null ? null : java.net.URI.create(instance));
            }
        }
        return super.createResponseEntity(body, headers, statusCode, request);
    }

    private ResponseEntity<ProblemDetail> bodyTimeout(BodyTimeoutException e, HttpServletRequest request) {
        ProblemDetail p = problem(ProblemKind.REQUEST_TIMEOUT, e.getMessage() + " (schedlab.http.body-timeout)",
                request);
        HttpHeaders headers = new HttpHeaders();
        headers.set(HttpHeaders.CONNECTION, "close");
        return respond(p, headers);
    }

    private ResponseEntity<ProblemDetail> payloadTooLarge(PayloadTooLargeException e, HttpServletRequest request) {
        ProblemDetail p = problem(ProblemKind.PAYLOAD_TOO_LARGE,
                e.getMessage() + " (schedlab.limits.max-body-bytes)", request);
        p.setProperty("limit", e.limit());
        HttpHeaders headers = new HttpHeaders();
        headers.set(HttpHeaders.CONNECTION, "close");
        return respond(p, headers);
    }

    /** A Retry-After header of whole seconds, at least 1. */
    private static HttpHeaders retryAfter(java.time.Duration wait) {
        HttpHeaders headers = new HttpHeaders();
        headers.set(HttpHeaders.RETRY_AFTER, Long.toString(Math.max(1, wait.toSeconds())));
        return headers;
    }

    /** A problem of this kind about the request, with its detail. */
    public static ProblemDetail problem(ProblemKind kind, String detail, HttpServletRequest request) {
        ProblemDetail p = ProblemDetail.forStatusAndDetail(kind.status(), detail);
        p.setType(kind.type());
        p.setTitle(kind.title());
        String instance = ProblemWriter.safeInstance(request.getRequestURI());
        if (instance != null) {
            p.setInstance(java.net.URI.create(instance));
        }
        return p;
    }

    /** The problem as an application/problem+json answer, with extra headers when not null. */
    public static ResponseEntity<ProblemDetail> respond(ProblemDetail p, HttpHeaders headers) {
        ResponseEntity.BodyBuilder b = ResponseEntity.status(p.getStatus())
                .contentType(org.springframework.http.MediaType.APPLICATION_PROBLEM_JSON);
        if (headers != null) {
            b.headers(headers);
        }
        return b.body(p);
    }

    /** {@code errors} with at most {@link #MAX_ERRORS} entries, and {@code totalErrors} when there were more. */
    private static void setErrors(ProblemDetail p, List<Violation> vs) {
        p.setProperty("errors", pointers(vs.size() > MAX_ERRORS ? vs.subList(0, MAX_ERRORS) : vs));
        if (vs.size() > MAX_ERRORS) {
            p.setProperty("totalErrors", vs.size());
        }
    }

    private static List<Map<String, String>> pointers(List<Violation> vs) {
        return vs.stream().map(v -> Map.of("pointer", v.pointer() == null ? "" : v.pointer(), "message", v.message()))
                .toList();
    }

    private static String at(Violation v) {
        return (v.pointer() == null || v.pointer().isEmpty() ? "(document)" : v.pointer()) + ": " + v.message();
    }

    private static <T extends Throwable> T findCause(Throwable t, Class<T> type) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (type.isInstance(c)) {
                return type.cast(c);
            }
        }
        return null;
    }
}
