package io.schedlab.engine.model;

/**
 * A physical CPU (hardware thread). Position in the topology is fixed; {@link #current} is the
 * vCPU running here (null = idle), maintained by the simulator only. {@link #policyData} is a
 * slot for the policy's per-pCPU state (Xen's {@code sched_priv}).
 */
public final class Pcpu {
    public final int id;
    public final int socket;
    /** Global core id (unique across sockets). */
    public final int core;
    /** Thread index within the core (0..threadsPerCore-1). */
    public final int thread;
    public final int numaNode;

    /** Running vCPU or null when idle. Written by the simulator. */
    public Vcpu current;
    /** Policy-private state. */
    public Object policyData;

    public Pcpu(int id, int socket, int core, int thread, int numaNode) {
        this.id = id;
        this.socket = socket;
        this.core = core;
        this.thread = thread;
        this.numaNode = numaNode;
    }

    public boolean isIdle() {
        return current == null;
    }

    @Override
    public String toString() {
        return "pcpu" + id;
    }
}
