package io.schedlab.engine.spec;

import java.util.List;

/**
 * Host topology: sockets x cores x SMT threads, NUMA nodes (default one per socket), cache
 * sizes. pCPU ids are numbered socket-major, then core, then thread (like Linux on most Intel
 * hosts with SMT siblings adjacent): pcpu = ((socket * cores) + core) * threads + thread.
 */
public record HostSpec(
        Integer sockets,
        Integer coresPerSocket,
        Integer threadsPerCore,
        List<NumaNodeSpec> numaNodes,
        List<List<Integer>> numaDistance,
        Integer llcKbPerSocket,
        Integer l2KbPerCore,
        Integer l1KbPerCore) {

    /** A host without an explicit L1 size (the normalizer's default applies). */
    public HostSpec(Integer sockets, Integer coresPerSocket, Integer threadsPerCore, List<NumaNodeSpec> numaNodes,
            List<List<Integer>> numaDistance, Integer llcKbPerSocket, Integer l2KbPerCore) {
        this(sockets, coresPerSocket, threadsPerCore, numaNodes, numaDistance, llcKbPerSocket, l2KbPerCore, null);
    }
}
