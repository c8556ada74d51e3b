package io.schedlab.engine.result;

/** One pCPU's time split: running vCPUs, idle, and scheduler overhead (decision, switch, context_saved); they sum to the run. */
public record PcpuResult(int pcpu, int socket, int core, int thread, double busySeconds, double idleSeconds,
        double overheadSeconds) {
}
