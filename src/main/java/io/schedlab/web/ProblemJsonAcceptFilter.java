package io.schedlab.web;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Treats {@code application/problem+json} in Accept as accepting the operation's success body too: a
 * client generated with openapi-generator's default options sends the first JSON-like media type
 * of an operation's responses as its only Accept (openapi-generator 7.25,
 * modules/openapi-generator/src/main/resources/python/api_client.mustache, {@code select_header_accept}),
 * and where that is an error response's problem+json, its calls must still get the answer: JSON, or the
 * CSV of a {@code .csv} operation (whose only JSON-like type is its errors').
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 1)
public class ProblemJsonAcceptFilter extends OncePerRequestFilter {

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String accept = String.join(",", Collections.list(request.getHeaders(HttpHeaders.ACCEPT)));
        chain.doFilter(acceptsProblemJsonOnly(accept) ? new AlsoJson(request, accept) : request, response);
    }

    /** Accept names problem+json and nothing a JSON answer would already satisfy. */
    static boolean acceptsProblemJsonOnly(String accept) {
        if (accept.isBlank()) {
            return false;
        }
        List<MediaType> types;
        try {
            types = MediaType.parseMediaTypes(accept);
        } catch (IllegalArgumentException malformed) {
            return false; // answered as Spring answers a malformed Accept
        }
        return types.stream().anyMatch(t -> t.isCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON) && !t.isWildcardType()
                        && !t.isWildcardSubtype())
                && types.stream().noneMatch(t -> t.isCompatibleWith(MediaType.APPLICATION_JSON));
    }

    /** The request with the success bodies' types, {@code application/json} and {@code text/csv}, appended to its Accept header. */
    private static final class AlsoJson extends HttpServletRequestWrapper {

        private final String accept;

        AlsoJson(HttpServletRequest request, String accept) {
            super(request);
            this.accept = accept + ", " + MediaType.APPLICATION_JSON_VALUE + ", " + CsvResponses.TEXT_CSV;
        }

        @Override
        public String getHeader(String name) {
            return HttpHeaders.ACCEPT.equalsIgnoreCase(name) ? accept : super.getHeader(name);
        }

        @Override
        public Enumeration<String> getHeaders(String name) {
            return HttpHeaders.ACCEPT.equalsIgnoreCase(name) ? Collections.enumeration(List.of(accept))
                    : super.getHeaders(name);
        }
    }
}
