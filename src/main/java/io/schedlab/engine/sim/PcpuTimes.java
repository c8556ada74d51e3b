package io.schedlab.engine.sim;

import java.util.Arrays;

/**
 * Time a vCPU ran on each pCPU, stored sparsely (memory grows with the pCPUs it visited, not the
 * host size); the last used slot is checked first, so the common "same pCPU again" is O(1).
 */
final class PcpuTimes {
    private int[] pcpus = new int[2];
    private long[] nanos = new long[2];
    private int size;
    private int last;

    void add(int pcpu, long ns) {
        if (ns <= 0) {
            return;
        }
        if (last < size && pcpus[last] == pcpu) {
            nanos[last] += ns;
            return;
        }
        for (int i = 0; i < size; i++) {
            if (pcpus[i] == pcpu) {
                nanos[i] += ns;
                last = i;
                return;
            }
        }
        if (size == pcpus.length) {
            pcpus = Arrays.copyOf(pcpus, size * 2);
            nanos = Arrays.copyOf(nanos, size * 2);
        }
        pcpus[size] = pcpu;
        nanos[size] = ns;
        last = size++;
    }

    /** (pCPU, ns) pairs in ascending pCPU order. */
    long[][] sorted() {
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
