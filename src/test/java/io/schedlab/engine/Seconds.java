package io.schedlab.engine;

/** Nanoseconds of the result document as seconds, for assertions written in seconds. */
public final class Seconds {
    private Seconds() {
    }

    public static double of(long nanos) {
        return nanos / 1e9;
    }

    /** Null stays null ("not applicable"). */
    public static Double of(Long nanos) {
        return nanos == null ? null : nanos / 1e9;
    }
}
