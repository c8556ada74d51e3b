package io.schedlab.engine.model;

import java.util.List;

/**
 * The host: pCPUs with socket/core/thread/NUMA positions, NUMA distances (ACPI SLIT: 10 = local)
 * per-node memory bandwidth, and cache sizes (L1 and L2 per core, LLC per socket). Built from a normalized {@code HostSpec}.
 */
public record Topology(List<Pcpu> pcpus, int sockets, int coresPerSocket, int threadsPerCore, int numaNodes,
        int[][] numaDistance, double[] nodeBandwidthMBps, long[] nodeMemoryMb, int llcKbPerSocket,
        int l2KbPerCore, int l1KbPerCore) {

    public int size() {
        return pcpus.size();
    }

    public Pcpu pcpu(int id) {
        return pcpus.get(id);
    }

    public boolean sameCore(int a, int b) {
        return pcpus.get(a).core == pcpus.get(b).core;
    }

    public boolean sameSocket(int a, int b) {
        return pcpus.get(a).socket == pcpus.get(b).socket;
    }

    /** SMT siblings of a pCPU (same core, other threads), ascending ids. */
    public List<Pcpu> siblings(int pcpu) {
        int core = pcpus.get(pcpu).core;
        return pcpus.stream().filter(p -> p.core == core && p.id != pcpu).toList();
    }
}
