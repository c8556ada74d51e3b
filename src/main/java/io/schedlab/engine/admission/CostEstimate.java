package io.schedlab.engine.admission;

/**
 * What a run is expected to cost before it runs: simulated events and peak heap bytes, and the
 * simulated seconds the estimate assumed (the duration, or less when every workload is finite).
 */
public record CostEstimate(long events, long heapBytes, double simulatedSeconds) {
}
