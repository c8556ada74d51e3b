package io.schedlab.engine.recording;

/** Receives xentrace-style records one at a time; never asked to hold them all. */
public interface TraceSink {

    /** One record: simulated time, pCPU, event name, VM name (or null), vCPU index (or -1). */
    void record(long timeNanos, int pcpu, String event, String vm, int vcpu);

    /** A sink that drops everything. */
    TraceSink NONE = (t, p, e, vm, v) -> { };
}
