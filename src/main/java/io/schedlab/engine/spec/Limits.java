package io.schedlab.engine.spec;

/** Size limits a validator enforces; the service takes them from configuration. */
public record Limits(int maxPcpus, int maxVcpus, int maxVms, double maxDurationSeconds, long maxEvents,
        int maxTimelineActions, long maxTraceEvents) {

    /** Defaults used by the CLI and tests. */
    public static Limits defaults() {
        return new Limits(1024, 8192, 1024, 86_400, 2_000_000_000L, 10_000, 10_000_000L);
    }
}
