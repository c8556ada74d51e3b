package io.schedlab.auth;

import io.schedlab.web.ProblemKind;
import io.schedlab.web.ProblemWriter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Optional;
import java.util.function.Supplier;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Checks {@code Authorization: Bearer KEY} when keys are configured: every {@code /api} call and
 * every actuator endpoint but health needs a known key (401 otherwise), and the key's role must
 * allow the method (403: a reader may only read). The key found is left in the request
 * ({@link #KEY_ATTRIBUTE}) for {@link RequestCallerAccess}. The OpenAPI document, Swagger UI
 * and {@code /actuator/health} stay public (no experiment data; health is the orchestrator's probe).
 */
public class ApiKeyFilter extends OncePerRequestFilter {

    /** Request attribute holding the caller's {@link ApiKey}. */
    public static final String KEY_ATTRIBUTE = ApiKeyFilter.class.getName() + ".key";
    private static final String BEARER = "bearer ";

    private final Supplier<ApiKeys> keys;

    /** {@code keys}: the key set in force, read on every request (it changes when the keys file does). */
    public ApiKeyFilter(Supplier<ApiKeys> keys) {
        this.keys = keys;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String path = request.getRequestURI().substring(request.getContextPath().length());
        if (!needsKey(path)) {
            chain.doFilter(request, response);
            return;
        }
        String header = request.getHeader("Authorization");
        String instance = ProblemWriter.safeInstance(request.getRequestURI());
        if (header == null || !header.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            response.setHeader("WWW-Authenticate", "Bearer realm=\"schedlab\"");
            ProblemWriter.write(response, ProblemKind.UNAUTHORIZED,
                    "this service needs an API key: send Authorization: Bearer KEY", instance, null);
            return;
        }
        Optional<ApiKey> key = keys.get().find(header.substring(BEARER.length()).strip());
        if (key.isEmpty()) {
            response.setHeader("WWW-Authenticate", "Bearer realm=\"schedlab\", error=\"invalid_token\"");
            ProblemWriter.write(response, ProblemKind.UNAUTHORIZED, "the API key is not known", instance, null);
            return;
        }
        if (!key.get().role().mayUse(request.getMethod())) {
            ProblemWriter.write(response, ProblemKind.FORBIDDEN, "the key '" + key.get().name() + "' has role "
                    + key.get().role().fileName() + ", which may only read (GET)", instance, null);
            return;
        }
        request.setAttribute(KEY_ATTRIBUTE, key.get());
        chain.doFilter(request, response);
    }

    /** True for the API and every actuator endpoint except health. */
    static boolean needsKey(String path) {
        if (path.startsWith("/api/") || path.equals("/api")) {
            return true;
        }
        boolean actuator = path.startsWith("/actuator");
        boolean health = path.equals("/actuator/health") || path.startsWith("/actuator/health/");
        return actuator && !health;
    }
}
