package io.schedlab.engine.sim;

import java.util.Arrays;

/**
 * Time a vCPU ran on each pCPU. On a host of at most {@link #DENSE_MAX_PCPUS} pCPUs one slot per
 * pCPU (a move costs one array add); on larger hosts stored sparsely (memory grows with the pCPUs
 * it visited, not the host size). Runs on the same pCPU as the previous one only add to a field of
 * this object; the total goes into the arrays when the vCPU moves to another pCPU (or when read).
 */
final class PcpuTimes {
    /** Largest host with one slot per pCPU: at most 1 KB per vCPU. */
    static final int DENSE_MAX_PCPUS = 128;

    /** Time by pCPU on a small host, else null. */
    private final long[] dense;
    private int[] pcpus = new int[2];
    private long[] nanos = new long[2];
    private int size;
    /** The pCPU of the latest runs (-1: none) and their time not yet in the arrays. */
    private int currentPcpu = -1;
    private long currentNanos;

    PcpuTimes(int hostPcpus) {
        this.dense = hostPcpus <= DENSE_MAX_PCPUS ? new long[hostPcpus] : null;
    }

    void add(int pcpu, long ns) {
        if (ns <= 0) {
            return;
        }
        if (pcpu == currentPcpu) {
            currentNanos += ns;
            return;
        }
        flush();
        currentPcpu = pcpu;
        currentNanos = ns;
    }

    /** Moves the pending time of the current pCPU into the arrays. */
    private void flush() {
        if (currentPcpu < 0) {
            return;
        }
        int pcpu = currentPcpu;
        currentPcpu = -1;
        if (dense != null) {
            dense[pcpu] += currentNanos;
            return;
        }
        for (int i = 0; i < size; i++) {
            if (pcpus[i] == pcpu) {
                nanos[i] += currentNanos;
                return;
            }
        }
        if (size == pcpus.length) {
            pcpus = Arrays.copyOf(pcpus, size * 2);
            nanos = Arrays.copyOf(nanos, size * 2);
        }
        pcpus[size] = pcpu;
        nanos[size++] = currentNanos;
    }

    /** (pCPU, ns) pairs in ascending pCPU order. */
    long[][] sorted() {
        flush();
        if (dense != null) {
            int visited = 0;
            for (long ns : dense) {
                visited += ns > 0 ? 1 : 0;
            }
            long[][] out = new long[visited][];
            int k = 0;
            for (int p = 0; p < dense.length; p++) {
                if (dense[p] > 0) {
                    out[k++] = new long[] {p, dense[p]};
                }
            }
            return out;
        }
        Integer[] order = new Integer[size];
        for (int i = 0; i < size; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Integer.compare(pcpus[a], pcpus[b]));
        long[][] out = new long[size][];
        for (int i = 0; i < size; i++) {
            out[i] = new long[] {pcpus[order[i]], nanos[order[i]]};
        }
        return out;
    }
}
