package io.schedlab.engine.output;

/**
 * The run's cost and latency distributions (seed 000's three CDFs plus the latencies users ask for).
 *
 * @param decision scheduling decision time: lock wait + pick (Xen schedule() with do_schedule)
 * @param contextSwitch context-switch time when prev != next
 * @param contextSaved time to re-queue prev (context_saved), incl. lock wait
 * @param wakeLatency guest thread ready (sleep end) -> running on a pCPU
 * @param runqueueWait vCPU runnable -> running
 */
public record Distributions(Distribution decision, Distribution contextSwitch, Distribution contextSaved,
        Distribution wakeLatency, Distribution runqueueWait) {
}
