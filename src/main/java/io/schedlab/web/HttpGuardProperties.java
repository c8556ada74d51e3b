package io.schedlab.web;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code schedlab.http.*}: bounds on slow or greedy clients, enforced by {@link SlowClientGuard} on top of
 * Tomcat's per-read {@code server.tomcat.connection-timeout} (a client sending a byte every second never
 * trips a per-read timeout).
 *
 * @param headerTimeout           longest time from a request's first byte to the end of its headers; a
 *                                connection still sending its request line or headers after it is closed
 * @param bodyTimeout             longest time to read a request's body, from the end of its headers; a read after
 *                                it fails, answered 408 request-timeout and the connection closed ({@link BodyTimeoutFilter})
 * @param maxConnectionsPerClient connections one remote address may hold open; a request on a connection
 *                                beyond it is answered 429 too-many-connections and the connection closed; 0 = no limit
 */
@ConfigurationProperties("schedlab.http")
public record HttpGuardProperties(
        @DefaultValue("10s") Duration headerTimeout,
        @DefaultValue("30s") Duration bodyTimeout,
        @DefaultValue("64") int maxConnectionsPerClient) {

    public HttpGuardProperties {
        requirePositive("schedlab.http.header-timeout", headerTimeout);
        requirePositive("schedlab.http.body-timeout", bodyTimeout);
        if (maxConnectionsPerClient < 0) {
            throw new IllegalArgumentException("schedlab.http.max-connections-per-client must be >= 0, was "
                    + maxConnectionsPerClient);
        }
    }

    private static void requirePositive(String name, Duration value) {
        if (value == null || value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(name + " must be positive, was " + value);
        }
    }
}
