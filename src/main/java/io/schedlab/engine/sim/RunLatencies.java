package io.schedlab.engine.sim;

import io.schedlab.engine.recording.LatencyRecorder;
import io.schedlab.engine.output.Distributions;

/** The run's cost and latency recorders (the result's {@link Distributions}), one method per thing measured. */
final class RunLatencies {
    private final LatencyRecorder decision = new LatencyRecorder();
    private final LatencyRecorder contextSwitch = new LatencyRecorder();
    private final LatencyRecorder contextSaved = new LatencyRecorder();
    /** At the per-VM and per-vCPU recorders' precision, so the same wake-ups give the same percentiles. */
    private final LatencyRecorder wake = LatencyRecorder.compact();
    private final LatencyRecorder runqueueWait = new LatencyRecorder();

    /** One schedule() decision: lock wait + hold. */
    void decision(long ns) {
        decision.record(ns);
    }

    /** One context switch (prev != next). */
    void contextSwitch(long ns) {
        contextSwitch.record(ns);
    }

    /** One context_saved: lock wait + hold. */
    void contextSaved(long ns) {
        contextSaved.record(ns);
    }

    /** A guest thread's sleep end until it ran on a pCPU. */
    void wake(long ns) {
        wake.record(ns);
    }

    /** A vCPU runnable until it ran. */
    void runqueueWait(long ns) {
        runqueueWait.record(ns);
    }

    Distributions toDistributions() {
        return new Distributions(decision.toDistribution(true), contextSwitch.toDistribution(true),
                contextSaved.toDistribution(true), wake.toDistribution(true), runqueueWait.toDistribution(true));
    }
}
