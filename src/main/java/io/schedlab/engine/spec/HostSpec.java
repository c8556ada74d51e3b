package io.schedlab.engine.spec;

import java.util.List;

/**
 * Host topology: sockets x cores x SMT threads, NUMA nodes (default one per socket), cache
 * sizes, whether SMT is on, and how pCPU ids follow the threads ({@link CpuNumbering}, counting
 * usable threads only): by default a core's threads are adjacent, pcpu = ((socket * cores) + core) *
 * threads + thread; {@code cores-first} numbers every core's first thread before any second one, as
 * the firmware of many Intel hosts lists them. With {@code smt = false} one hardware thread per core is
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
        Boolean smt,
        CpuNumbering cpuNumbering) {

    /** A host with default L1 size and SMT as the hardware has it (the normalizer's defaults apply). */
    public HostSpec(Integer sockets, Integer coresPerSocket, Integer threadsPerCore, List<NumaNodeSpec> numaNodes,
            List<List<Integer>> numaDistance, Integer llcKbPerSocket, Integer l2KbPerCore) {
        this(sockets, coresPerSocket, threadsPerCore, numaNodes, numaDistance, llcKbPerSocket, l2KbPerCore, null, null);
    }

    /** A host whose pCPU ids follow the default numbering (a core's threads adjacent). */
    public HostSpec(Integer sockets, Integer coresPerSocket, Integer threadsPerCore, List<NumaNodeSpec> numaNodes,
            List<List<Integer>> numaDistance, Integer llcKbPerSocket, Integer l2KbPerCore, Integer l1KbPerCore,
            Boolean smt) {
        this(sockets, coresPerSocket, threadsPerCore, numaNodes, numaDistance, llcKbPerSocket, l2KbPerCore,
                l1KbPerCore, smt, null);
    }

    /** The numbering in force: the given one, or a core's threads adjacent when absent. */
    public CpuNumbering numbering() {
        return cpuNumbering == null ? CpuNumbering.SIBLINGS_ADJACENT : cpuNumbering;
    }

    /** The socket of pCPU {@code pcpu} under this host's numbering (absent sizes count 1). */
    public int socketOfPcpu(int pcpu) {
        return numbering().socketOf(orOne(sockets), orOne(coresPerSocket), usableThreadsPerCore(), pcpu);
    }

    /** The global core of pCPU {@code pcpu} (socket x cores + core) under this host's numbering. */
    public int coreOfPcpu(int pcpu) {
        return numbering().coreOf(orOne(sockets), orOne(coresPerSocket), usableThreadsPerCore(), pcpu);
    }

    private static int orOne(Integer value) {
        return value == null ? 1 : value;
    }

    /** Hardware threads per core that run vCPUs: threadsPerCore, or 1 with SMT off (absent counts 1). */
    public int usableThreadsPerCore() {
        return Boolean.FALSE.equals(smt) || threadsPerCore == null ? 1 : threadsPerCore;
    }

    /** Usable pCPUs: sockets x cores x usable threads (absent counts 1). */
    public long usablePcpus() {
        return (long) orOne(sockets) * orOne(coresPerSocket) * usableThreadsPerCore();
    }
}
