package io.schedlab.web;

import java.io.IOException;
import java.time.Duration;

/** Thrown while reading a request body still incomplete after {@code schedlab.http.body-timeout}. */
public class BodyTimeoutException extends IOException {
    private final Duration timeout;

    public BodyTimeoutException(Duration timeout) {
        super("the request body was not complete after " + timeout.toMillis() + " ms");
        this.timeout = timeout;
    }

    public Duration timeout() {
        return timeout;
    }
}
