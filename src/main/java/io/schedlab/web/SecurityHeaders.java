package io.schedlab.web;

import jakarta.servlet.http.HttpServletResponse;

/**
 * The security headers of every answer. API and actuator answers (JSON, CSV, event streams) are
 * never cached and may load nothing; HTML pages (Swagger UI, the index page, the report pages and
 * their scripts) get a content security policy that runs only scripts served by this origin (no
 * inline script, no eval; a report's data is a JSON island, which a CSP does not treat as script).
 * Inline styles stay allowed: Swagger UI's bundle and ECharts' tooltips use them.
 * Values after the OWASP Secure Headers Project's recommendations.
 */
public final class SecurityHeaders {

    /** CSP of answers that are data, not pages. */
    public static final String API_CSP = "default-src 'none'; frame-ancestors 'none'";
    /** CSP of HTML pages served by the service (Swagger UI). */
    public static final String PAGE_CSP = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline';"
            + " script-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'";

    private SecurityHeaders() {
    }

    /** Sets the headers; {@code data} = an API/actuator answer (no-store, restrictive CSP). */
    public static void apply(HttpServletResponse response, boolean data) {
        response.setHeader("X-Content-Type-Options", "nosniff");
        response.setHeader("X-Frame-Options", "DENY");
        response.setHeader("Referrer-Policy", "no-referrer");
        if (data) {
            response.setHeader("Cache-Control", "no-store");
            response.setHeader("Content-Security-Policy", API_CSP);
        } else {
            response.setHeader("Content-Security-Policy", PAGE_CSP);
        }
    }

    /** True for paths whose answers are data (the API, actuator, the OpenAPI document, errors), not pages. */
    public static boolean isData(String path) {
        return path == null || !(path.startsWith("/swagger-ui") || path.equals("/swagger-ui.html")
                || path.equals("/") || path.equals("/index.html") || path.startsWith("/app/")
                || path.startsWith("/webjars/") || path.endsWith("/report"));
    }
}
