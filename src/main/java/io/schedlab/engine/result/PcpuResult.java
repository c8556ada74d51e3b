package io.schedlab.engine.result;

/**
 * One pCPU's time split: running vCPUs, idle, and scheduler overhead (decision, switch, context_saved); they
 * sum to the run. {@code forcedIdleNanos}: the part of the idle time when the pCPU's core (socket) ran a
 * unit of a domain with no runnable vCPU for it (core scheduling); null at cpu granularity.
 */
public record PcpuResult(int pcpu, int socket, int core, int thread, double busySeconds, double idleSeconds,
        double overheadSeconds, Long forcedIdleNanos) {
}
