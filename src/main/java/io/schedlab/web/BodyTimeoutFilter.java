package io.schedlab.web;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Duration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Enforces {@code schedlab.http.body-timeout}: a request body still being read that long after its headers fails
 * with {@link BodyTimeoutException} (answered {@code 408 request-timeout}, connection closed). Tomcat's
 * {@code connection-timeout} bounds each read only (a client sending a byte a second never trips it); this bounds
 * the whole body. The check runs on each read, so a client that sends nothing at all is cut by the per-read
 * timeout instead: the bound is the body timeout plus at most one {@code server.tomcat.connection-timeout}.
 */
@Component
@EnableConfigurationProperties(HttpGuardProperties.class) // also in web slices, which hold filters only
@Order(Ordered.HIGHEST_PRECEDENCE + 11)
public class BodyTimeoutFilter extends OncePerRequestFilter {

    /**
     * Request attribute set when the body timed out: {@link SlowClientGuard}'s valve then tells Tomcat not to
     * swallow the rest of the body after the answer (it would keep reading the trickle) but to close.
     */
    static final String TIMED_OUT = BodyTimeoutFilter.class.getName() + ".timedOut";

    private final Duration timeout;

    public BodyTimeoutFilter(HttpGuardProperties properties) {
        this.timeout = properties.bodyTimeout();
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        boolean hasBody = request.getContentLengthLong() > 0 || request.getHeader("Transfer-Encoding") != null;
        chain.doFilter(hasBody ? new TimedRequest(request, System.nanoTime() + timeout.toNanos(), timeout) : request,
                response);
    }

    /** Marks {@code request} as timed out (see {@link #TIMED_OUT}). */
    private static void markTimedOut(HttpServletRequest request) {
        request.setAttribute(TIMED_OUT, Boolean.TRUE);
    }

    private static final class TimedRequest extends HttpServletRequestWrapper {
        private final long deadline;
        private final Duration timeout;
        private ServletInputStream stream;

        TimedRequest(HttpServletRequest request, long deadline, Duration timeout) {
            super(request);
            this.deadline = deadline;
            this.timeout = timeout;
        }

        @Override
        public ServletInputStream getInputStream() throws IOException {
            if (stream == null) {
                HttpServletRequest request = (HttpServletRequest) getRequest();
                stream = new TimedStream(super.getInputStream(), deadline, timeout, () -> markTimedOut(request));
            }
            return stream;
        }
    }

    private static final class TimedStream extends ForwardingServletInputStream {
        private final long deadline;
        private final Duration timeout;
        private final Runnable onTimeout;

        TimedStream(ServletInputStream in, long deadline, Duration timeout, Runnable onTimeout) {
            super(in);
            this.deadline = deadline;
            this.timeout = timeout;
            this.onTimeout = onTimeout;
        }

        @Override
        public int read() throws IOException {
            check();
            int b = in.read();
            check();
            return b;
        }

        @Override
        public int read(byte[] buf, int off, int len) throws IOException {
            check();
            int n = in.read(buf, off, len);
            if (n >= 0 && !in.isFinished()) {
                check();
            }
            return n;
        }

        private void check() throws BodyTimeoutException {
            if (System.nanoTime() - deadline > 0) {
                onTimeout.run();
                throw new BodyTimeoutException(timeout);
            }
        }
    }
}
