package io.schedlab.web;

import java.io.IOException;

/** Thrown while reading a request body that turned out longer than the configured limit. */
public class PayloadTooLargeException extends IOException {
    private final long limit;

    public PayloadTooLargeException(long limit) {
        super("the request body exceeds the limit of " + limit + " bytes");
        this.limit = limit;
    }

    public long limit() {
        return limit;
    }
}
