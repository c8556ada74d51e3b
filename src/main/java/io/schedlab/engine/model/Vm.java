package io.schedlab.engine.model;

import java.util.ArrayList;
import java.util.List;

/** A VM (Xen domain): its vCPUs, weight, cap (percent of one pCPU, 0 = none), memory node. */
public final class Vm {
    public final int id;
    public final String name;
    public final List<Vcpu> vcpus = new ArrayList<>();
    public int weight;
    /** Cap in percent of one pCPU (100 = one full pCPU); 0 means no cap. */
    public int cap;
    public final int memoryMb;
    public final int memoryNode;
    /** Memory spread evenly over every NUMA node (interleaved) instead of all on {@link #memoryNode}. */
    public final boolean memoryStriped;
    /** Policy-private per-domain state. */
    public Object policyData;
    /** Linux nice value when this "VM" is a group of host threads that are not vCPUs (KVM), else null. */
    public Integer hostNice;
    /** Host threads (KVM): the cgroup they run in, null for the root (hostThreads[].cgroup). */
    public String cgroup;
    /** False once shut down. */
    public boolean alive = true;

    public Vm(int id, String name, int weight, int cap, int memoryMb, int memoryNode) {
        this(id, name, weight, cap, memoryMb, memoryNode, false);
    }

    /** A VM whose memory is striped over every node when {@code memoryStriped}. */
    public Vm(int id, String name, int weight, int cap, int memoryMb, int memoryNode, boolean memoryStriped) {
        this.memoryStriped = memoryStriped;
        this.id = id;
        this.name = name;
        this.weight = weight;
        this.cap = cap;
        this.memoryMb = memoryMb;
        this.memoryNode = memoryNode;
    }

    @Override
    public String toString() {
        return name;
    }
}
