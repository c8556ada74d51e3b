package io.schedlab.engine.output;

/**
 * Global counters of a run.
 *
 * @param simulatedNanos simulated time at the end of the run
 * @param events discrete events taken from the queue (stale ones included)
 * @param contextSwitches switches with prev != next (idle counts as a vCPU)
 * @param migrations vCPU starts on another pCPU than the last, by distance
 * @param numaLocalFraction share of memory-stream work done on the memory's own node, null when there was none
 * @param traceRecords trace records emitted
 */
public record RunTotals(long simulatedNanos, long events, long contextSwitches, Migrations migrations,
        Double numaLocalFraction, long traceRecords) {
}
