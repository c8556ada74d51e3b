package io.schedlab.engine.recording;

/** Forwards at most {@code maxEvents} trace records to a sink, then drops the rest (counting them). */
public final class BoundedTrace {
    private final TraceSink sink;
    private final long maxEvents;
    private long emitted;

    public BoundedTrace(TraceSink sink, long maxEvents) {
        this.sink = sink;
        this.maxEvents = maxEvents;
    }

    /** A trace that records nothing. */
    public static BoundedTrace off() {
        return new BoundedTrace(TraceSink.NONE, 0);
    }

    public boolean enabled() {
        return emitted < maxEvents;
    }

    public void record(long timeNanos, int pcpu, String event, String vm, int vcpu) {
        if (emitted < maxEvents) {
            emitted++;
            sink.record(timeNanos, pcpu, event, vm, vcpu);
        }
    }

    public long emitted() {
        return emitted;
    }
}
