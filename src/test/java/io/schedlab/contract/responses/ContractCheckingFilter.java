package io.schedlab.contract.responses;

import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.core.Ordered;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Outermost filter of every test application context: copies each answer as it is written
 * (streams keep streaming) and records its departures from openapi.yaml in
 * {@link ResponseViolations}; an asynchronous answer (SSE, streamed trace) is checked when it completes.
 */
public class ContractCheckingFilter extends OncePerRequestFilter implements Ordered {

    private final OpenApiResponseValidator validator;

    public ContractCheckingFilter(OpenApiResponseValidator validator) {
        this.validator = validator;
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        TeeResponse tee = new TeeResponse(response);
        chain.doFilter(request, tee);
        if (request.isAsyncStarted()) {
            request.getAsyncContext().addListener(new AsyncListener() {
                @Override
                public void onComplete(AsyncEvent event) {
                    check(request, tee);
                }

                @Override
                public void onTimeout(AsyncEvent event) {
                }

                @Override
                public void onError(AsyncEvent event) {
                }

                @Override
                public void onStartAsync(AsyncEvent event) {
                }
            });
        } else {
            tee.flushWriter();
            check(request, tee);
        }
    }

    private void check(HttpServletRequest request, TeeResponse tee) {
        String path = request.getRequestURI().substring(request.getContextPath().length());
        ResponseViolations.record(validator.validate(request.getMethod(), path, tee.getStatus(),
                tee.getContentType(), tee.copy()));
    }
}
