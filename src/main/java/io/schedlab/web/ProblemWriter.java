package io.schedlab.web;

import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import tools.jackson.databind.json.JsonMapper;

/**
 * Writes an RFC 9457 problem straight to a servlet response, for answers given before or outside
 * Spring MVC (filters, the error page, Tomcat's own rejections): no content negotiation, so a
 * client's {@code Accept} cannot turn the answer into an empty body or an HTML page.
 */
public final class ProblemWriter {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private ProblemWriter() {
    }

    /** The problem document: type, title, status, detail, instance, then {@code extra} members in order. */
    public static Map<String, Object> document(ProblemKind kind, int status, String detail, String instance,
            Map<String, ?> extra) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("type", kind.type().toString());
        body.put("title", kind.title());
        body.put("status", status);
        body.put("detail", detail);
        if (instance != null) {
            body.put("instance", instance);
        }
        if (extra != null) {
            body.putAll(extra);
        }
        return body;
    }

    /** Sets status, problem+json content type and the API's security headers, and writes the body. */
    public static void write(HttpServletResponse response, ProblemKind kind, String detail, String instance,
            Map<String, ?> extra) throws IOException {
        write(response, kind, kind.status().value(), detail, instance, extra);
    }

    /** As {@link #write(HttpServletResponse, ProblemKind, String, String, Map)} with another status of the same kind. */
    public static void write(HttpServletResponse response, ProblemKind kind, int status, String detail,
            String instance, Map<String, ?> extra) throws IOException {
        byte[] bytes = JSON.writeValueAsBytes(document(kind, status, detail, instance, extra));
        response.resetBuffer();
        response.setStatus(status);
        response.setContentType(ApiErrors.PROBLEM_JSON);
        response.setCharacterEncoding(StandardCharsets.UTF_8.name());
        SecurityHeaders.apply(response, true);
        response.setContentLength(bytes.length);
        response.getOutputStream().write(bytes);
        response.flushBuffer();
    }

    /** A request path fit to echo as {@code instance}: only when short and printable, else empty. */
    public static String safeInstance(String uri) {
        if (uri == null || uri.length() > 512 || uri.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
            return null;
        }
        return uri;
    }
}
