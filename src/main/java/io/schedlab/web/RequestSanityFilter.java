package io.schedlab.web;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.server.RequestPath;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.servlet.mvc.method.RequestMappingInfoHandlerMapping;

/**
 * Answers requests no endpoint can serve before they reach Spring MVC: {@code TRACE} (405 with the
 * path's own {@code Allow}, {@link ServedMethods}; it would echo credentials back), a query string
 * with more parameters than {@code server.tomcat.max-parameter-count} (400 naming the limit) or one
 * that does not decode ({@code ?a=%ZZ},
 * {@code ?%ZZ=1}: Tomcat throws on the first parameter read, which Spring would report as a 500),
 * and a path Spring MVC cannot decode (a bad escape in a {@code ;parameter}, which Tomcat lets through).
 * An {@code Accept} header that does not parse ({@code Accept: ;;;}) is dropped, as RFC 9110
 * section 12.5.1 allows: Spring would otherwise fail to negotiate even the problem body and send
 * an empty error.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 5)
public class RequestSanityFilter extends OncePerRequestFilter {

    private final ServedMethods served;
    private final int maxParameters;

    public RequestSanityFilter(ObjectProvider<RequestMappingInfoHandlerMapping> mappings,
            @Value("${server.tomcat.max-parameter-count:1000}") int maxParameters) {
        this.served = new ServedMethods(mappings);
        this.maxParameters = maxParameters;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if ("TRACE".equalsIgnoreCase(request.getMethod())) {
            response.setHeader("Allow", served.allowHeader(request.getRequestURI()));
            ProblemWriter.write(response, ProblemKind.METHOD_NOT_ALLOWED, "TRACE is not supported",
                    ProblemWriter.safeInstance(request.getRequestURI()), null);
            return;
        }
        try {
            // Spring MVC parses the path, ;path-parameters included, before any handler: a bad %-escape
            // there ("/experiments/a;b%") would escape the DispatcherServlet as a 500
            RequestPath.parse(request.getRequestURI(), request.getContextPath());
        } catch (IllegalArgumentException undecodable) {
            ProblemWriter.write(response, ProblemKind.MALFORMED_REQUEST,
                    "the request path could not be decoded (invalid %-escape in a path segment or ;parameter)",
                    null, Map.of("errors", List.of(Map.of("parameter", "", "message",
                            "the path is not valid percent-encoded UTF-8"))));
            return;
        }
        try {
            request.getParameterMap();
        } catch (IllegalStateException | IllegalArgumentException undecodable) {
            int parameters = parameterCount(request.getQueryString());
            if (maxParameters >= 0 && parameters > maxParameters) {
                ProblemWriter.write(response, ProblemKind.MALFORMED_REQUEST, "the query string has " + parameters
                        + " parameters, at most " + maxParameters + " are read (server.tomcat.max-parameter-count)",
                        ProblemWriter.safeInstance(request.getRequestURI()),
                        Map.of("errors", List.of(Map.of("parameter", "", "message",
                                "at most " + maxParameters + " parameters"))));
                return;
            }
            ProblemWriter.write(response, ProblemKind.MALFORMED_REQUEST,
                    "the query string could not be decoded (invalid %-escape or character encoding)",
                    ProblemWriter.safeInstance(request.getRequestURI()),
                    Map.of("errors", List.of(Map.of("parameter", "", "message",
                            "the query string is not valid percent-encoded UTF-8"))));
            return;
        }
        chain.doFilter(parseableAccept(request) ? request : new WithoutAccept(request), response);
    }

    /** Parameters as Tomcat counts them: the non-empty {@code &}-separated parts of the query. */
    private static int parameterCount(String query) {
        if (query == null || query.isEmpty()) {
            return 0;
        }
        int n = 0;
        for (String part : query.split("&")) {
            n += part.isEmpty() ? 0 : 1;
        }
        return n;
    }

    private static boolean parseableAccept(HttpServletRequest request) {
        java.util.Enumeration<String> accepts = request.getHeaders(HttpHeaders.ACCEPT);
        try {
            while (accepts != null && accepts.hasMoreElements()) {
                MediaType.parseMediaTypes(accepts.nextElement());
            }
            return true;
        } catch (IllegalArgumentException e) { // InvalidMediaTypeException among others
            return false;
        }
    }

    /** The request without its Accept header. */
    private static final class WithoutAccept extends HttpServletRequestWrapper {
        WithoutAccept(HttpServletRequest request) {
            super(request);
        }

        @Override
        public String getHeader(String name) {
            return HttpHeaders.ACCEPT.equalsIgnoreCase(name) ? null : super.getHeader(name);
        }

        @Override
        public java.util.Enumeration<String> getHeaders(String name) {
            return HttpHeaders.ACCEPT.equalsIgnoreCase(name) ? java.util.Collections.emptyEnumeration()
                    : super.getHeaders(name);
        }

        @Override
        public java.util.Enumeration<String> getHeaderNames() {
            List<String> names = new java.util.ArrayList<>(java.util.Collections.list(super.getHeaderNames()));
            names.removeIf(HttpHeaders.ACCEPT::equalsIgnoreCase);
            return java.util.Collections.enumeration(names);
        }
    }
}
