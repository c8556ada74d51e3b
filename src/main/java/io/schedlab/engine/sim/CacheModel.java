package io.schedlab.engine.sim;

import io.schedlab.engine.costs.CostModel;
import io.schedlab.engine.model.Topology;

/**
 * What the caches still hold of a vCPU when it is switched in, and what refilling the rest costs.
 *
 * <p>Each private L2 (per core, shared by its SMT threads) and each last-level cache (per socket)
 * is an LRU stack of the vCPUs that ran there, most recent first, each with the footprint it left
 * (its workload's working set, by default {@code coldCacheWorkingSetKb}, at most the cache's size). A vCPU's data survives
 * below the footprints of the vCPUs that ran there after it: with {@code above} bytes on top, it keeps
 * {@code max(0, min(footprint, size - above))} (the stack-distance model of an LRU cache, Mattson et
 * al., "Evaluation techniques for storage hierarchies", IBM Systems Journal 1970). What the vCPU must
 * refill is its reload transient ({@link #reloadBytes}): all it lost when its working set fits the
 * cache, less when the working set is larger (then it misses part of the time even alone). This covers both
 * cases Xen sees: a vCPU resuming on the same pCPU after another VM ran there (seed 001: two loops
 * sharing pCPU 1 each need ~14% more CPU time for the same work) and a migration (the new core's
 * L2 holds nothing of it; another socket's LLC neither).
 *
 * <p>Refill: what the LLC lost comes from memory at {@code memoryRefillMBps} (at most the node's
 * bandwidth), what only the L2 lost
 * comes from the LLC at {@code llcRefillMBps}; that time is the warm-up debt. While the misses are
 * served the vCPU's thread runs at {@code refillProgressFraction} (rho) of full speed (an out-of-order
 * core executes independent work meanwhile: memory-level parallelism), so the refill takes
 * debt / (1 - rho) of wall time and a run that outlasts it loses exactly the debt (rho x debt / (1 - rho)
 * done during the refill, the rest at full speed); {@link Progress} applies the slow rate up to the
 * refill's end. rho = 0 is a stall until the refill is done. A vCPU switched out before its refill
 * finished leaves only what it refilled (its footprint grows in proportion to the refill time spent),
 * so a short slice does not pretend a full refill. A vCPU's first run pays nothing (its caches were warmed before the measured work began,
 * on no pCPU the model knows).
 */
final class CacheModel {
    private final int[] coreOf;
    private final int[] socketOf;
    private final Level l2;
    private final Level llc;
    /** The cost model's default working set (a workload may declare its own). */
    private final long defaultWorkingSetBytes;
    /**
     * Per pCPU, the rate its LLC refills from memory: {@code memoryRefillMBps}, at most the peak bandwidth
     * of the pCPU's NUMA node ({@code host.numaNodes[].bandwidthMBps}): overlapped misses cannot move data
     * faster than the memory bus delivers it (seed 001's 2005 host: one 6.4 GB/s front-side bus).
     */
    private final double[] memoryBytesPerNano;
    private final double llcBytesPerNano;
    /** costs.refillProgressFraction: the share of full speed kept while the refill is served. */
    private final double refillProgressFraction;
    /** Per vCPU uid, its current run: switch-in time, refill time, and per level what survived and what it needs. */
    private long[] inAt = new long[0];
    private long[] refill = new long[0];
    private long[] survL2 = new long[0];
    private long[] survLlc = new long[0];
    private long[] needL2 = new long[0];
    private long[] needLlc = new long[0];

    CacheModel(Topology topo, CostModel costs) {
        int n = topo.size();
        coreOf = new int[n];
        socketOf = new int[n];
        for (int p = 0; p < n; p++) {
            coreOf[p] = topo.pcpu(p).core;
            socketOf[p] = topo.pcpu(p).socket;
        }
        l2 = new Level(topo.sockets() * topo.coresPerSocket(), topo.l2KbPerCore() * 1024L);
        llc = new Level(topo.sockets(), topo.llcKbPerSocket() * 1024L);
        defaultWorkingSetBytes = costs.coldCacheWorkingSetKb() * 1024L;
        memoryBytesPerNano = new double[n];
        for (int p = 0; p < n; p++) {
            double mbps = Math.min(costs.memoryRefillMBps(), topo.nodeBandwidthMBps()[topo.pcpu(p).numaNode]);
            memoryBytesPerNano[p] = mbps * MIB / 1e9;
        }
        llcBytesPerNano = costs.llcRefillMBps() * MIB / 1e9;
        refillProgressFraction = costs.refillProgressFraction();
    }

    /** 1 MB = 2^20 bytes, as Xen and sysbench report MiB. */
    private static final double MIB = 1024.0 * 1024.0;

    /**
     * vCPU {@code uid}, whose workload keeps {@code workingSetKb} hot (-1: the cost default), is switched
     * in on pCPU p at {@code at}: the wall time its refill takes (debt / (1 - refillProgressFraction); 0 on its
     * first run), during which it progresses at the fraction's share of full speed; it becomes the most
     * recent user of p's L2 and LLC with its whole footprint (cut back at {@link #switchOut} if it
     * leaves before the refill is done).
     */
    long switchIn(int uid, int p, boolean ranBefore, long workingSetKb, long at) {
        grow(uid);
        long workingSetBytes = workingSetKb < 0 ? defaultWorkingSetBytes : workingSetKb * 1024L;
        int core = coreOf[p];
        int socket = socketOf[p];
        needL2[uid] = Math.min(workingSetBytes, l2.capacity);
        needLlc[uid] = Math.min(workingSetBytes, llc.capacity);
        survL2[uid] = l2.touch(core, uid, needL2[uid]);
        survLlc[uid] = llc.touch(socket, uid, needLlc[uid]);
        double missingL2 = reloadBytes(workingSetBytes, l2.capacity, survL2[uid]);
        double lostLlc = reloadBytes(workingSetBytes, llc.capacity, survLlc[uid]);
        inAt[uid] = at;
        if (!ranBefore || workingSetBytes == 0) {
            refill[uid] = 0;
            return 0;
        }
        // Lines refilled from memory land in the L2 too; the rest of the L2's loss comes from the LLC.
        double debt = lostLlc / memoryBytesPerNano[p] + Math.max(0, missingL2 - lostLlc) / llcBytesPerNano;
        refill[uid] = Math.round(debt / (1 - refillProgressFraction));
        return refill[uid];
    }

    /**
     * The misses (in bytes) that bring a working set of {@code w} bytes back from {@code resident} bytes
     * in a cache of {@code capacity} bytes to what it holds when the program runs alone there: the
     * cache-reload transient (Thiebaut and Stone, "Footprints in the cache", ACM TOCS 5(4), 1987) under
     * the independent reference model (every line of the working set equally likely at each reference;
     * King, "Analysis of demand paging algorithms", IFIP 1971). A working set that fits refills what it
     * lost, {@code w - resident}. One larger than the cache hits only capacity/w of its references even
     * alone, so only part of a reload is extra: with r lines resident a reference misses with probability
     * 1 - r/w where alone it would miss with 1 - c/w, and each miss adds a line, so the extra misses are
     * the integral of (c - r)/(w - r) dr from resident to c, i.e.
     * (c - resident) - (w - c) ln((w - resident)/(w - c)): 31% of the cache for w = 2c, 7% for w = 8c.
     */
    static double reloadBytes(long w, long capacity, long resident) {
        if (w <= capacity) {
            return Math.max(0, w - resident);
        }
        double c = capacity;
        double r = Math.min(resident, capacity);
        return Math.max(0, (c - r) - (w - c) * Math.log((w - r) / (w - c)));
    }

    /** vCPU uid leaves pCPU p at {@code at}: if its refill was not done, it holds only the part it refilled. */
    void switchOut(int uid, int p, long at) {
        if (uid >= refill.length || refill[uid] == 0) {
            return;
        }
        long ran = Math.max(0, at - inAt[uid]);
        if (ran >= refill[uid]) {
            return;
        }
        double paid = (double) ran / refill[uid];
        l2.resize(coreOf[p], uid, survL2[uid] + Math.round(paid * (needL2[uid] - survL2[uid])));
        llc.resize(socketOf[p], uid, survLlc[uid] + Math.round(paid * (needLlc[uid] - survLlc[uid])));
    }

    private void grow(int uid) {
        if (uid < inAt.length) {
            return;
        }
        int n = Math.max(uid + 1, 2 * inAt.length);
        inAt = java.util.Arrays.copyOf(inAt, n);
        refill = java.util.Arrays.copyOf(refill, n);
        survL2 = java.util.Arrays.copyOf(survL2, n);
        survLlc = java.util.Arrays.copyOf(survLlc, n);
        needL2 = java.util.Arrays.copyOf(needL2, n);
        needLlc = java.util.Arrays.copyOf(needLlc, n);
    }

    /** One cache level: an LRU stack of (vCPU uid, bytes) per instance, pruned below the capacity. */
    private static final class Level {
        final long capacity;
        private final int[][] uids;
        private final long[][] bytes;
        private final int[] size;

        Level(int instances, long capacity) {
            this.capacity = capacity;
            uids = new int[instances][4];
            bytes = new long[instances][4];
            size = new int[instances];
        }

        /** uid's footprint in instance i becomes {@code footprint} bytes, in place (no-op when evicted meanwhile). */
        void resize(int i, int uid, long footprint) {
            for (int k = 0; k < size[i]; k++) {
                if (uids[i][k] == uid) {
                    bytes[i][k] = footprint;
                    return;
                }
            }
        }

        /**
         * uid becomes the most recent user of instance i with {@code footprint} bytes; fully evicted entries
         * drop. Returns the bytes of uid's footprint that were still there (what lay above it pushed the rest
         * out): one walk finds uid, sums what lies above it and, when the new top and that sum stay below the
         * capacity, lets the pruning resume below uid's old place instead of summing the stack again.
         */
        long touch(int i, int uid, long footprint) {
            int[] u = uids[i];
            long[] b = bytes[i];
            int n = size[i];
            int at = n;
            long above = 0;
            for (int k = 0; k < n; k++) {
                if (u[k] == uid) {
                    at = k;
                    break;
                }
                above += b[k];
            }
            long surviving = at < n ? Math.max(0, Math.min(b[at], capacity - above)) : 0;
            if (at == n) {
                if (n == u.length) {
                    uids[i] = u = java.util.Arrays.copyOf(u, 2 * n);
                    bytes[i] = b = java.util.Arrays.copyOf(b, 2 * n);
                }
                n++;
            }
            System.arraycopy(u, 0, u, 1, at);
            System.arraycopy(b, 0, b, 1, at);
            u[0] = uid;
            b[0] = footprint;
            // The new stack's first at + 1 entries sum to footprint + above: below the capacity, all stay.
            long kept = footprint + above;
            int keep = at + 1;
            if (kept >= capacity) {
                kept = 0;
                keep = 0;
            }
            while (keep < n && kept < capacity) {
                kept += b[keep];
                keep++;
            }
            size[i] = keep;
            return surviving;
        }
    }
}
