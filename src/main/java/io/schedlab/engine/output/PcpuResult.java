package io.schedlab.engine.output;

/**
 * One pCPU's time split: running vCPUs, idle, and scheduler overhead (decision, switch,
 * context_saved); the three sum to the run's simulated time.
 *
 * @param pcpu pCPU id
 * @param socket its socket
 * @param core its core within the socket
 * @param thread its SMT thread within the core
 * @param runqueue the run queue it belongs to
 * @param busyNanos time it ran vCPUs
 * @param idleNanos time it was idle
 * @param overheadNanos time it spent in the scheduler
 * @param forcedIdleNanos the part of the idle time when the pCPU's core (socket) ran a unit of a domain with no
 *     runnable vCPU for it (core scheduling); null at cpu granularity
 * @param jainIndex Jain's index of the CPU time it gave the competing VMs (per weight), null when fewer than one ran on it
 */
public record PcpuResult(int pcpu, int socket, int core, int thread, int runqueue, long busyNanos, long idleNanos,
        long overheadNanos, Long forcedIdleNanos, Double jainIndex) {
}
