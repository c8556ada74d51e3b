package io.schedlab.engine.policies.rt;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;

/**
 * EDF order replayed from a trace of switches alone: whenever a pCPU switches to a vCPU, no vCPU that waits
 * (runs nowhere) with budget left in its current period has an earlier deadline. vCPU i's periods are
 * [offset_i + k P_i, offset_i + (k + 1) P_i) with budget B_i; run time is taken from the switch times.
 */
final class EdfOrderCheck {
    /** Budget burned by switch and decision overheads, which the trace does not show. */
    private static final long TOLERANCE_NANOS = 50_000;

    private EdfOrderCheck() {
    }

    /** Asserts the order and returns how many (switch, waiting vCPU) pairs were checked. */
    static int check(List<RtRuns.Switch> trace, int pcpus, long[] period, long[] budget, long[] offset) {
        int count = period.length;
        int[] running = new int[pcpus];
        Arrays.fill(running, -1);
        long[] used = new long[count];
        long[] periodOf = new long[count];
        Arrays.fill(periodOf, Long.MIN_VALUE);
        long last = 0;
        int checked = 0;
        for (int g = 0; g < trace.size(); ) {
            long time = trace.get(g).time();
            int end = g;
            while (end < trace.size() && trace.get(end).time() == time) {
                end++;
            }
            for (int v : running) {
                if (v >= 0) {
                    accumulate(v, last, time, period, offset, used, periodOf);
                }
            }
            last = time;
            // Switches of one instant are decided one after another: judge them once all are applied. A vCPU
            // switched away at this instant is not back on its queue before its context_saved: not judged.
            int[] before = running.clone();
            for (int i = g; i < end; i++) {
                running[trace.get(i).pcpu()] = trace.get(i).vcpu();
            }
            for (int i = g; i < end; i++) {
                int x = trace.get(i).vcpu();
                if (x < 0 || running[trace.get(i).pcpu()] != x) {
                    continue;
                }
                long deadline = deadline(time, period[x], offset[x]);
                for (int y = 0; y < count; y++) {
                    if (contains(running, y) || contains(before, y)) {
                        continue;
                    }
                    long usedNow = index(time, period[y], offset[y]) == periodOf[y] ? used[y] : 0;
                    boolean ready = usedNow < budget[y] - TOLERANCE_NANOS;
                    long other = deadline(time, period[y], offset[y]);
                    assertThat(ready && other < deadline)
                            .as("at %d ns pcpu%d ran v%d (deadline %d) while v%d waited with %d ns used (deadline %d)",
                                    time, trace.get(i).pcpu(), x, deadline, y, usedNow, other)
                            .isFalse();
                    checked++;
                }
            }
            g = end;
        }
        return checked;
    }

    /** Adds v's run time in [from, to) to its current period's use (a new period starts from 0). */
    private static void accumulate(int v, long from, long to, long[] period, long[] offset, long[] used,
            long[] periodOf) {
        while (from < to) {
            long k = index(from, period[v], offset[v]);
            if (k != periodOf[v]) {
                periodOf[v] = k;
                used[v] = 0;
            }
            long until = Math.min(to, offset[v] + (k + 1) * period[v]);
            used[v] += until - from;
            from = until;
        }
    }

    private static long index(long t, long period, long offset) {
        return Math.floorDiv(t - offset, period);
    }

    private static long deadline(long t, long period, long offset) {
        return offset + (index(t, period, offset) + 1) * period;
    }

    private static boolean contains(int[] running, int v) {
        for (int r : running) {
            if (r == v) {
                return true;
            }
        }
        return false;
    }
}
