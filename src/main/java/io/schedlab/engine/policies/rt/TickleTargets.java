package io.schedlab.engine.policies.rt;

import io.schedlab.engine.model.Pcpu;
import io.schedlab.engine.model.Vcpu;
import java.util.Comparator;
import java.util.TreeSet;

/**
 * The pCPUs rt.c runq_tickle (xen/common/sched/rt.c, RELEASE-4.14.0) chooses among: the tickled ones
 * (prv->tickled), the idle ones and the running vCPUs ordered lowest priority first. Xen walks
 * {@code online & hard affinity & ~tickled} from the vCPU's pCPU (cpumask_cycle) and stops at the first idle
 * pCPU, else keeps the lowest-priority running vCPU; {@link #target} gives the same pCPU from an idle mask (a
 * cpumask of idle pCPUs, as Xen's cpupool idle masks) and a priority-ordered set, and the count of pCPUs that
 * walk looks at (its lock work), without the walk. {@link #walk} is the walk itself, used when the vCPU may
 * not run everywhere and to check the other.
 */
final class TickleTargets {
    /** Lowest priority first (compare_unit_priority reversed), ties in pCPU order. */
    private static final Comparator<Slot> LOWEST_FIRST = (a, b) -> {
        if (a.level != b.level) {
            return Integer.compare(b.level, a.level);
        }
        if (a.deadline != b.deadline) {
            return Long.compare(b.deadline, a.deadline);
        }
        return Integer.compare(a.cpu, b.cpu);
    };

    /** One pCPU's running vCPU and its priority as last recorded. */
    private static final class Slot {
        /** Its pCPU (only the search key's changes). */
        int cpu;
        int level;
        long deadline;
        RtdsVcpu svc;

        Slot(int cpu) {
            this.cpu = cpu;
        }
    }

    private final int n;
    private final long[] idle;
    private final long[] tickled;
    private int tickledCount;
    private final Slot[] slots;
    private final TreeSet<Slot> running = new TreeSet<>(LOWEST_FIRST);
    /** A reusable search key. */
    private final Slot probe = new Slot(0);
    /** pCPUs the last {@link #target} or {@link #walk} looked at. */
    private long walked;

    /** All pCPUs tickle-free; idle as {@code cpus} show them now (none runs a vCPU at init). */
    TickleTargets(Pcpu[] cpus) {
        this.n = cpus.length;
        int words = (n + 63) >>> 6;
        this.idle = new long[words];
        this.tickled = new long[words];
        this.slots = new Slot[n];
        for (int c = 0; c < n; c++) {
            slots[c] = new Slot(c);
            idle[c >>> 6] |= 1L << c;
        }
    }

    boolean tickled(int cpu) {
        return (tickled[cpu >>> 6] & (1L << cpu)) != 0;
    }

    void setTickled(int cpu, boolean on) {
        if (tickled(cpu) != on) {
            tickled[cpu >>> 6] ^= 1L << cpu;
            tickledCount += on ? 1 : -1;
        }
    }

    /** rt_schedule's answer on {@code cpu}: it runs {@code svc} from now (null: it idles). */
    void setRunning(int cpu, RtdsVcpu svc) {
        Slot s = slots[cpu];
        if (s.svc == svc && (svc == null || (s.level == svc.level && s.deadline == svc.curDeadline))) {
            return;
        }
        if (s.svc != null) {
            running.remove(s);
            s.svc.runningOn = -1;
        }
        s.svc = svc;
        if (svc == null) {
            idle[cpu >>> 6] |= 1L << cpu;
            return;
        }
        idle[cpu >>> 6] &= ~(1L << cpu);
        svc.runningOn = cpu;
        s.level = svc.level;
        s.deadline = svc.curDeadline;
        running.add(s);
    }

    /** A running vCPU's priority changed (rt_update_deadline, burn_budget): re-sort it. */
    void priorityChanged(RtdsVcpu svc) {
        if (svc.runningOn >= 0) {
            setRunning(svc.runningOn, svc);
        }
    }

    /** Whether {@code svc} may run on every pCPU (then {@link #target} answers for it), as last refreshed. */
    boolean allowsAll(RtdsVcpu svc) {
        assert svc.allowsAll == allowsAllNow(svc.vcpu) : svc.vcpu + ": hard affinity changed without affinityChanged()";
        return svc.allowsAll;
    }

    /** Records whether svc's hard affinity now holds every pCPU (after addVcpu or an affinity change). */
    void refreshAllowsAll(RtdsVcpu svc) {
        svc.allowsAll = allowsAllNow(svc.vcpu);
    }

    private boolean allowsAllNow(Vcpu v) {
        return v.hardAffinity.nextClearBit(0) >= n;
    }

    /**
     * The pCPU runq_tickle tickles for {@code snew} (allowed everywhere), or -1: the first idle, not tickled
     * pCPU from {@code snew}'s own, cycling; else the first, in that order, running the lowest-priority vCPU if
     * that is lower than {@code snew}.
     */
    int target(RtdsVcpu snew) {
        int start = snew.vcpu.processor;
        int c = nextIdleUntickled(start);
        if (c < 0) {
            c = nextIdleUntickled(0);
            if (c >= start) {
                c = -1;
            }
        }
        if (c >= 0) {
            int span = c >= start ? c - start + 1 : n - start + c + 1;
            walked = span - (c >= start ? tickledIn(start, c + 1) : tickledIn(start, n) + tickledIn(0, c + 1));
            return c;
        }
        walked = n - tickledCount;
        Slot lowest = lowestUntickled(start);
        return lowest != null && lowest.svc.comparePriority(snew) < 0 ? lowest.cpu : -1;
    }

    /** The same answer by rt.c's walk over {@code hostCpus}' current vCPUs, for any hard affinity. */
    int walk(RtdsVcpu snew, Pcpu[] hostCpus) {
        Vcpu v = snew.vcpu;
        RtdsVcpu lowest = null;
        walked = 0;
        for (int k = 0, c = v.processor; k < n; k++, c = c + 1 == n ? 0 : c + 1) {
            if (tickled(c) || !v.allowedOn(c)) {
                continue;
            }
            Vcpu cur = hostCpus[c].current;
            walked++;
            if (cur == null) {
                return c;
            }
            RtdsVcpu iter = (RtdsVcpu) cur.policyData;
            if (lowest == null || iter.comparePriority(lowest) < 0) {
                lowest = iter;
            }
        }
        return lowest != null && lowest.comparePriority(snew) < 0 ? lowest.vcpu.processor : -1;
    }

    /** pCPUs the last {@link #target} or {@link #walk} looked at. */
    long walked() {
        return walked;
    }

    /** First pCPU >= from that idles and is not tickled, or -1. */
    private int nextIdleUntickled(int from) {
        if (from >= n) {
            return -1;
        }
        int w = from >>> 6;
        long bits = (idle[w] & ~tickled[w]) & (-1L << from);
        while (true) {
            if (bits != 0) {
                int c = (w << 6) + Long.numberOfTrailingZeros(bits);
                return c < n ? c : -1;
            }
            if (++w == idle.length) {
                return -1;
            }
            bits = idle[w] & ~tickled[w];
        }
    }

    /** Tickled pCPUs in [from, to). */
    private int tickledIn(int from, int to) {
        int count = 0;
        for (int c = from; c < to; ) {
            int w = c >>> 6;
            int end = Math.min(to, (w + 1) << 6);
            long mask = (-1L << c) & (end - (w << 6) == 64 ? -1L : (1L << (end - (w << 6))) - 1);
            count += Long.bitCount(tickled[w] & mask);
            c = end;
        }
        return count;
    }

    /**
     * Of the lowest-priority group of running vCPUs with an untickled pCPU, the first such pCPU from
     * {@code start}, cycling: the one the walk keeps (it replaces its choice only by a strictly lower one).
     */
    private Slot lowestUntickled(int start) {
        Slot group = running.isEmpty() ? null : running.first(); // a group's first: its lowest pCPU
        while (group != null) {
            probe.level = group.level;
            probe.deadline = group.deadline;
            probe.cpu = start;
            for (Slot s = running.ceiling(probe); s != null && sameGroup(s, group); s = running.higher(s)) {
                if (!tickled(s.cpu)) {
                    return s;
                }
            }
            for (Slot s = group; s != null && s.cpu < start && sameGroup(s, group); s = running.higher(s)) {
                if (!tickled(s.cpu)) {
                    return s;
                }
            }
            probe.cpu = Integer.MAX_VALUE;
            group = running.higher(probe);
        }
        return null;
    }

    private static boolean sameGroup(Slot a, Slot b) {
        return a.level == b.level && a.deadline == b.deadline;
    }
}
