package io.schedlab.web;

import jakarta.servlet.ServletException;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ValveBase;
import org.apache.coyote.AbstractProcessor;
import org.apache.coyote.Constants;
import org.apache.tomcat.util.net.SocketWrapperBase;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.stereotype.Component;

/**
 * Bounds slow and greedy clients ({@code schedlab.http.*}) on the embedded Tomcat.
 * <p>
 * Tomcat's {@code connectionTimeout} is a per-read timeout ("the number of milliseconds this Connector will
 * wait ... for the request URI line to be presented" and the socket read timeout; Tomcat 11 HTTP connector
 * reference, https://tomcat.apache.org/tomcat-11.0-doc/config/http.html): a client that sends one byte every
 * second never trips it and holds its connection for as long as it likes (slowloris). Tomcat has no whole-request
 * bound, so a sweeper reads the connector's open connections every {@value #SWEEP_MILLIS} ms and closes those
 * whose request, counted from its first byte (Tomcat's request start time), is still in its request line or
 * headers after {@code header-timeout} (a connection being parsed keeps its processor between reads, so its
 * request is visible here; one being served is not). A request parsed in time is untouched however long it
 * takes to answer (progress streams); its body is bounded by {@link BodyTimeoutFilter}.
 * <p>
 * Per client, counted by the socket's remote address: a request arriving while its address holds more than
 * {@code max-connections-per-client} open connections is answered {@code 429 too-many-connections}
 * (problem+json, {@code Retry-After}) and its connection closed, before any filter or endpoint runs. Behind a
 * proxy every client shares the proxy's address: raise the limit or set 0.
 */
@Component
@EnableConfigurationProperties(HttpGuardProperties.class)
class SlowClientGuard implements WebServerFactoryCustomizer<TomcatServletWebServerFactory>, DisposableBean {

    static final long SWEEP_MILLIS = 250;
    /** Seconds a refused client is told to wait ({@code Retry-After}). */
    static final int RETRY_AFTER_SECONDS = 1;
    private static final Logger log = LoggerFactory.getLogger(SlowClientGuard.class);

    private final HttpGuardProperties properties;
    private volatile GuardedNioProtocol protocol;
    private ScheduledExecutorService sweeper;

    SlowClientGuard(HttpGuardProperties properties) {
        this.properties = properties;
    }

    @Override
    public void customize(TomcatServletWebServerFactory factory) {
        factory.setProtocol(GuardedNioProtocol.class.getName());
        factory.addConnectorCustomizers(connector -> {
            if (connector.getProtocolHandler() instanceof GuardedNioProtocol guarded) {
                protocol = guarded;
                startSweeper();
            }
        });
        factory.addEngineValves(new ConnectionLimitValve());
    }

    private synchronized void startSweeper() {
        if (sweeper != null) {
            return;
        }
        sweeper = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "schedlab-slow-clients");
            t.setDaemon(true);
            return t;
        });
        sweeper.scheduleWithFixedDelay(this::sweepLogged, SWEEP_MILLIS, SWEEP_MILLIS, TimeUnit.MILLISECONDS);
    }

    @Override
    public synchronized void destroy() {
        if (sweeper != null) {
            sweeper.shutdownNow();
            sweeper = null;
        }
    }

    private void sweepLogged() {
        try {
            sweep(System.nanoTime());
        } catch (RuntimeException e) {
            // never end the schedule: the next sweep tries again
            log.warn("checking connections for slow clients failed: {}", e.toString());
        }
    }

    /** Closes the connections over their header time; returns how many. */
    int sweep(long nowNanos) {
        GuardedNioProtocol p = protocol;
        if (p == null) {
            return 0;
        }
        int closed = 0;
        for (SocketWrapperBase<?> connection : p.openConnections()) {
            String over = overTime(connection, nowNanos);
            if (over != null) {
                log.info("closing connection from {}: {}", connection.getRemoteAddr(), over);
                connection.close();
                closed++;
            }
        }
        return closed;
    }

    /** Why {@code connection} is over its time, or null when it is not. */
    private String overTime(SocketWrapperBase<?> connection, long nowNanos) {
        // a connection between requests has no processor: keep-alive-timeout covers it
        if (!(connection.getCurrentProcessor() instanceof AbstractProcessor processor)) {
            return null;
        }
        org.apache.coyote.Request request = processor.getRequest();
        long start = request.getStartTimeNanos(); // set at the request's first byte, -1 once recycled
        if (start <= 0) {
            return null;
        }
        // a processor kept between reads is either parsing (request line, headers) or serving asynchronously
        // (progress streams); Tomcat 11 leaves the stage at ENDED (from the last recycle) until the headers are in
        if (processor.isAsync() || processor.isUpgrade() || !parsing(request.getRequestProcessor().getStage())) {
            return null;
        }
        Duration age = Duration.ofNanos(nowNanos - start);
        if (age.compareTo(properties.headerTimeout()) > 0) {
            return "request line and headers not complete after " + properties.headerTimeout().toMillis()
                    + " ms (schedlab.http.header-timeout)";
        }
        return null;
    }

    private static boolean parsing(int stage) {
        return stage == Constants.STAGE_NEW || stage == Constants.STAGE_PARSE || stage == Constants.STAGE_KEEPALIVE
                || stage == Constants.STAGE_ENDED;
    }

    /** Open connections of one remote address (the socket's peer). */
    long connectionsFrom(String address) {
        GuardedNioProtocol p = protocol;
        if (p == null || address == null) {
            return 0;
        }
        return p.openConnections().stream().filter(c -> address.equals(c.getRemoteAddr())).count();
    }

    /**
     * Answers 429 to a request whose client holds more connections than allowed; after a request whose body timed
     * out ({@link BodyTimeoutFilter}) tells Tomcat to close once answered instead of swallowing the rest of the
     * body (Tomcat's {@code ActionCode.DISABLE_SWALLOW_INPUT}, as for an aborted upload).
     */
    private final class ConnectionLimitValve extends ValveBase {

        ConnectionLimitValve() {
            super(true);
        }

        @Override
        public void invoke(Request request, Response response) throws IOException, ServletException {
            int limit = properties.maxConnectionsPerClient();
            long open = limit > 0 ? connectionsFrom(request.getPeerAddr()) : 0;
            if (open <= limit) {
                try {
                    getNext().invoke(request, response);
                } finally {
                    if (request.getAttribute(BodyTimeoutFilter.TIMED_OUT) != null) {
                        request.getCoyoteRequest().action(org.apache.coyote.ActionCode.DISABLE_SWALLOW_INPUT, null);
                    }
                }
                return;
            }
            response.setHeader("Connection", "close");
            response.setHeader("Retry-After", Integer.toString(RETRY_AFTER_SECONDS));
            ProblemWriter.write(response, ProblemKind.TOO_MANY_CONNECTIONS, "this client has " + open
                    + " connections open, more than the limit of " + limit
                    + " (schedlab.http.max-connections-per-client); close some and retry",
                    ProblemWriter.safeInstance(request.getRequestURI()), Map.of("limit", limit));
        }
    }
}
