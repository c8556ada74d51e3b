package io.schedlab.engine.policies.credit2;

/**
 * The pCPUs whose running vCPU started at most {@code grace} ns ago (those {@code is_preemptable}
 * refuses), as mask words kept up to date incrementally: each start is queued with its time and
 * its pCPU leaves the mask once that start is older than grace, so a tickle drops those pCPUs
 * word by word instead of testing each. Starts must be reported in time order; if one is not,
 * {@link #valid} turns false for good and callers test pCPU by pCPU.
 */
final class RecentStarts {
    private static final long NONE = Long.MIN_VALUE;

    private final long grace;
    private final long[] words;
    /** Start time of what runs on each pCPU, {@link #NONE} when idle or not reported. */
    private final long[] startOf;
    /** Queued starts, oldest first: slot i is {@code (head + i) & (cpus.length - 1)}. */
    private int[] cpus = new int[64];
    private long[] times = new long[64];
    private int head;
    private int size;
    private boolean valid = true;

    RecentStarts(int pcpus, long grace) {
        this.grace = grace;
        this.words = new long[CpuMask.wordsFor(pcpus)];
        this.startOf = new long[pcpus];
        java.util.Arrays.fill(startOf, NONE);
    }

    /** False once a start came out of time order: {@link #at} must not be used then. */
    boolean valid() {
        return valid;
    }

    /** A vCPU started on cpu at time {@code at} (a new vCPU or a new start: not a continuing one). */
    void started(int cpu, long at) {
        if (!valid) {
            return;
        }
        if (size > 0 && at < times[(head + size - 1) & (cpus.length - 1)]) {
            valid = false;
            return;
        }
        if (size == cpus.length) {
            grow();
        }
        int slot = (head + size) & (cpus.length - 1);
        cpus[slot] = cpu;
        times[slot] = at;
        size++;
        startOf[cpu] = at;
        words[cpu >>> 6] |= 1L << cpu;
    }

    /** cpu went idle. */
    void idle(int cpu) {
        startOf[cpu] = NONE;
        words[cpu >>> 6] &= ~(1L << cpu);
    }

    /** The mask at time now (not before any earlier call's now): pCPUs whose start is within grace. */
    long[] at(long now) {
        int mask = cpus.length - 1;
        while (size > 0 && now - times[head] > grace) {
            int cpu = cpus[head];
            if (startOf[cpu] == times[head]) {
                words[cpu >>> 6] &= ~(1L << cpu);
            }
            head = (head + 1) & mask;
            size--;
        }
        return words;
    }

    private void grow() {
        int[] c = new int[cpus.length * 2];
        long[] t = new long[c.length];
        for (int i = 0; i < size; i++) {
            int slot = (head + i) & (cpus.length - 1);
            c[i] = cpus[slot];
            t[i] = times[slot];
        }
        cpus = c;
        times = t;
        head = 0;
    }
}
