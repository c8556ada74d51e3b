package io.schedlab.webhooks;

/** How one attempt ended. */
public enum AttemptOutcome {
    /** A 2xx answer: the delivery is done. */
    DELIVERED,
    /** Another status (3xx too: redirects are not followed); retried. */
    REFUSED,
    /** No answer: the connection failed or the request timed out; retried. */
    UNREACHABLE
}
