package io.schedlab.webhooks;

/** Where a delivery stands: waiting for its subject to finish, being sent (with retries), then one of two ends. */
public enum DeliveryState {
    /** The experiment or sweep has not finished yet. */
    WAITING,
    /** Finished: the event is being posted, retried after a failed attempt. */
    SENDING,
    /** The receiver answered an attempt with a 2xx status. */
    DELIVERED,
    /** Every attempt failed ({@code schedlab.webhooks.max-attempts}); nothing more is sent. */
    GAVE_UP,
    /** The experiment was deleted before it finished; nothing is sent. */
    DROPPED
}
