package io.schedlab.engine.sim;

/**
 * Time accounting of every pCPU: busy (a vCPU ran), idle, and scheduler overhead (decisions, switches,
 * context_saved, lock waits), plus when the current idle stretch and the current overhead end. The
 * three totals partition the run's time on each pCPU once {@link #closeAt} has run.
 */
final class PcpuAccounts {
    private final long[] busyNs;
    private final long[] idleNs;
    private final long[] overheadNs;
    /** Start of the current idle stretch (meaningful while the pCPU is idle). */
    private final long[] idleSince;
    /** End of the overhead charged so far: the next decision on the pCPU starts no earlier. */
    private final long[] overheadUntil;

    PcpuAccounts(int pcpus) {
        busyNs = new long[pcpus];
        idleNs = new long[pcpus];
        overheadNs = new long[pcpus];
        idleSince = new long[pcpus];
        overheadUntil = new long[pcpus];
    }

    void addBusy(int p, long ns) {
        busyNs[p] += ns;
    }

    void addIdle(int p, long ns) {
        idleNs[p] += ns;
    }

    /** Overhead from {@code start} to {@code end}; the pCPU is busy with it until {@code end} (or a later end already charged). */
    void addOverhead(int p, long start, long end) {
        overheadNs[p] += end - start;
        overheadUntil[p] = Math.max(overheadUntil[p], end);
    }

    /** The pCPU became idle at {@code t}. */
    void idleFrom(int p, long t) {
        idleSince[p] = t;
    }

    /** The current idle stretch starts no earlier than {@code t}. */
    void idleNotBefore(int p, long t) {
        idleSince[p] = Math.max(idleSince[p], t);
    }

    long idleSince(int p) {
        return idleSince[p];
    }

    long overheadUntil(int p) {
        return overheadUntil[p];
    }

    long busy(int p) {
        return busyNs[p];
    }

    long idle(int p) {
        return idleNs[p];
    }

    long overhead(int p) {
        return overheadNs[p];
    }

    /** End of the run at {@code end}: overhead charged beyond it is taken back. */
    void closeAt(int p, long end) {
        if (overheadUntil[p] > end) {
            overheadNs[p] -= overheadUntil[p] - end;
        }
    }
}
