package io.schedlab.experiments;

import io.schedlab.engine.admission.CostEstimate;

/** A valid experiment whose estimated cost exceeds the configured limits (422, naming estimate and limit). */
public class ExperimentTooCostlyException extends RuntimeException {
    private final CostEstimate estimate;
    private final long maxEvents;
    private final long maxHeapBytes;

    public ExperimentTooCostlyException(CostEstimate estimate, long maxEvents, long maxHeapBytes) {
        super(describe(estimate, maxEvents, maxHeapBytes));
        this.estimate = estimate;
        this.maxEvents = maxEvents;
        this.maxHeapBytes = maxHeapBytes;
    }

    private static String describe(CostEstimate e, long maxEvents, long maxHeapBytes) {
        StringBuilder sb = new StringBuilder("the experiment is estimated to cost more than this service allows:");
        if (e.events() > maxEvents) {
            sb.append(String.format(" ~%,d simulated events (limit %,d, schedlab.limits.max-events)", e.events(),
                    maxEvents));
        }
        if (e.heapBytes() > maxHeapBytes) {
            sb.append(String.format(" ~%,d MiB of heap (limit %,d MiB, schedlab.limits.max-run-heap-mb)",
                    e.heapBytes() >> 20, maxHeapBytes >> 20));
        }
        return sb.append("; shorten it, or use fewer vCPUs, threads or wake-ups").toString();
    }

    public CostEstimate estimate() {
        return estimate;
    }

    public long maxEvents() {
        return maxEvents;
    }

    public long maxHeapBytes() {
        return maxHeapBytes;
    }
}
