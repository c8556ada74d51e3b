package io.schedlab.engine.spec;

import java.util.List;

/**
 * Host topology: sockets x cores x SMT threads, NUMA nodes (default one per socket), cache
 * sizes, and whether SMT is on. pCPU ids are numbered socket-major, then core, then thread (like
 * Linux on most Intel hosts with SMT siblings adjacent): pcpu = ((socket * cores) + core) * threads
 * + thread, counting usable threads only. With {@code smt = false} one hardware thread per core is
 * used (Xen's {@code smt=0} boot option leaves the other threads offline), so the host has
 * sockets x cores pCPUs and no SMT sibling slows another.
 */
public record HostSpec(
        Integer sockets,
        Integer coresPerSocket,
        Integer threadsPerCore,
        List<NumaNodeSpec> numaNodes,
        List<List<Integer>> numaDistance,
        Integer llcKbPerSocket,
        Integer l2KbPerCore,
        Integer l1KbPerCore,
        Boolean smt) {

    /** A host with default L1 size and SMT as the hardware has it (the normalizer's defaults apply). */
    public HostSpec(Integer sockets, Integer coresPerSocket, Integer threadsPerCore, List<NumaNodeSpec> numaNodes,
            List<List<Integer>> numaDistance, Integer llcKbPerSocket, Integer l2KbPerCore) {
        this(sockets, coresPerSocket, threadsPerCore, numaNodes, numaDistance, llcKbPerSocket, l2KbPerCore, null, null);
    }

    /** Hardware threads per core that run vCPUs: threadsPerCore, or 1 with SMT off (absent counts 1). */
    public int usableThreadsPerCore() {
        return Boolean.FALSE.equals(smt) || threadsPerCore == null ? 1 : threadsPerCore;
    }

    /** Usable pCPUs: sockets x cores x usable threads (absent counts 1). */
    public long usablePcpus() {
        return (long) (sockets == null ? 1 : sockets) * (coresPerSocket == null ? 1 : coresPerSocket)
                * usableThreadsPerCore();
    }
}
