package io.schedlab.engine.workloads;

/**
 * The memory a guest thread sees: the host's cache sizes (L1 and L2 per core, LLC per socket) and
 * the rate one thread moves data that fits each level (cost model {@code l1/l2/llcBandwidthMBps}).
 * Data that fits no cache streams from DRAM, where the engine shares the NUMA node's bandwidth;
 * {@code dramMissMBps} is the rate of dependent (unprefetched) misses to DRAM, one line per miss
 * latency (cost model {@code memoryRefillMBps}).
 */
public record MemoryHierarchy(int l1KbPerCore, int l2KbPerCore, int llcKbPerSocket, double l1MBps, double l2MBps,
        double llcMBps, double dramMissMBps) {

    /** Where a working set lives. */
    public enum Level { L1, L2, LLC, DRAM }

    /**
     * The smallest level holding a thread's data: {@code perCoreKb} against the per-core L1 and L2,
     * {@code perSocketKb} (the data of every thread that shares it) against the LLC.
     */
    public Level levelOf(long perCoreKb, long perSocketKb) {
        if (perCoreKb <= l1KbPerCore) {
            return Level.L1;
        }
        if (perCoreKb <= l2KbPerCore) {
            return Level.L2;
        }
        return perSocketKb <= llcKbPerSocket ? Level.LLC : Level.DRAM;
    }

    /** One thread's rate at a cache level (DRAM has none here: the engine's stream model applies). */
    public double rateMBps(Level level) {
        return switch (level) {
            case L1 -> l1MBps;
            case L2 -> l2MBps;
            case LLC -> llcMBps;
            case DRAM -> throw new IllegalArgumentException("DRAM rates come from the node's bandwidth");
        };
    }
}
