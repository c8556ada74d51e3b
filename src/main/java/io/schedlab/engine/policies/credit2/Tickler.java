package io.schedlab.engine.policies.credit2;

import io.schedlab.engine.model.Topology;
import io.schedlab.engine.model.Vcpu;
import io.schedlab.engine.policies.xen.XenVersion;

/**
 * credit2.c {@code runq_tickle}: which pCPU of the waking vCPU's run queue to poke, in the form
 * of the modelled release (scans allocate nothing and go word by word over the run queue's masks:
 * this runs on every wake and re-queue).
 * <ul>
 * <li>up to 4.6: the vCPU's own pCPU if it runs less credit (idle counts as lowest), then any idle
 * untickled pCPU cycling from it, else the busy pCPU with the lowest credit if the waker beats it
 * by the migration resistance;</li>
 * <li>4.7+: per affinity step (soft from 4.9, then hard) a pCPU on a fully idle core (own first),
 * then any idle untickled pCPU (own first); else the busy untickled pCPU with the best
 * {@code tickle_score} above 0 (own pCPU taken at once when in the waker's soft affinity), not
 * preempting one that ran less than the rate limit (4.8+, {@code is_preemptable}).</li>
 * </ul>
 */
final class Tickler {

    /** What runs on a pCPU: its credit burned up to now ({@link #IDLE_CREDIT} when idle) (by pCPU or by its running vCPU). */
    interface CreditProbe {
        long creditOn(int cpu, long now);

        /** {@link #creditOn} for a running vCPU already looked up (null: idle). */
        long creditOf(Credit2Vcpu running, long now);
    }

    /** CSCHED2_RATELIMIT_TICKLE_TOLERANCE: 50 us slack when peeking at others' run time. */
    static final long RATELIMIT_TICKLE_TOLERANCE = 50_000L;

    /** CSCHED2_IDLE_CREDIT: far below any vCPU's credit. */
    static final long IDLE_CREDIT = Long.MIN_VALUE / 4;

    private final int n;
    private final XenVersion version;
    private final long migrateResist;
    private final long creditInit;
    private final long ratelimit;
    private final CreditProbe probe;
    /** version.softAffinity(), read once. */
    private final boolean softVersion;
    /** is_preemptable applies: 4.8+ and a rate limit above the tolerance. */
    private final boolean checkPreemptable;
    /**
     * What do_schedule last put on each pCPU (null: idle) and its svc->runStart then: the simulator
     * switches to exactly that vCPU before any other policy call, so these equal pCPU.current and
     * its state at every tickle, and the scan reads two arrays instead of chasing pCPU -> vCPU -> svc.
     */
    private final Credit2Vcpu[] runningOn;
    private final long[] runStartOn;
    /**
     * When is_preemptable applies: each run queue's pCPUs in non-decreasing {@link #runStartOn}
     * (idle ones, at 0, first), as a doubly linked list by pCPU from {@link Credit2Runqueue#byStartFirst}.
     * The pCPUs is_preemptable accepts (started at least the rate limit less the tolerance ago) are
     * a prefix of it, so the busy scan visits those instead of every busy pCPU (most of which ran
     * too briefly: under load about 1 in 15 is preemptable). A pCPU only moves when its start time
     * changes: to the back (it starts at now, the latest time) or, going idle, to the front.
     */
    private final int[] byStartNext;
    private final int[] byStartPrev;

    Tickler(Topology topo, XenVersion version, long migrateResist, long creditInit, long ratelimit,
            CreditProbe probe) {
        this.ratelimit = ratelimit;
        this.n = topo.size();
        this.version = version;
        this.migrateResist = migrateResist;
        this.creditInit = creditInit;
        this.probe = probe;
        this.softVersion = version.softAffinity();
        this.checkPreemptable = version.atLeast(8) && ratelimit > RATELIMIT_TICKLE_TOLERANCE;
        this.runningOn = new Credit2Vcpu[n];
        this.runStartOn = new long[n];
        this.byStartNext = new int[n];
        this.byStartPrev = new int[n];
    }

    /** cpu belongs to rqd (init, once per pCPU, while all are idle). */
    void joined(int cpu, Credit2Runqueue rqd) {
        assert runStartOn[cpu] == 0 && runningOn[cpu] == null;
        appendByStart(cpu, rqd);
    }

    /** do_schedule on cpu (of rqd) chose svc (null: idle); call after svc.runStart is final. */
    void scheduled(int cpu, Credit2Runqueue rqd, Credit2Vcpu svc) {
        if (runningOn[cpu] != svc) {
            runningOn[cpu] = svc; // only when it changes: a reference store costs a write barrier
        }
        long start = svc == null ? 0 : svc.runStart;
        if (start != runStartOn[cpu]) {
            runStartOn[cpu] = start;
            if (checkPreemptable) {
                unlinkByStart(cpu, rqd);
                if (start == 0) {
                    prependByStart(cpu, rqd);
                } else {
                    appendByStart(cpu, rqd);
                }
                assert inStartOrder(rqd) : "run queue " + rqd.id + ": pCPUs out of start order";
            }
        }
    }

    private void appendByStart(int cpu, Credit2Runqueue rqd) {
        linkByStart(cpu, rqd.byStartLast, -1, rqd);
    }

    private void prependByStart(int cpu, Credit2Runqueue rqd) {
        linkByStart(cpu, -1, rqd.byStartFirst, rqd);
    }

    /** Links cpu between prev and next (-1: the list's end on that side). */
    private void linkByStart(int cpu, int prev, int next, Credit2Runqueue rqd) {
        byStartPrev[cpu] = prev;
        byStartNext[cpu] = next;
        setNextOf(prev, cpu, rqd);
        setPrevOf(next, cpu, rqd);
    }

    private void unlinkByStart(int cpu, Credit2Runqueue rqd) {
        int prev = byStartPrev[cpu];
        int next = byStartNext[cpu];
        setNextOf(prev, next, rqd);
        setPrevOf(next, prev, rqd);
    }

    /** The pCPU after {@code at} becomes {@code cpu}; at -1, the list's first. */
    private void setNextOf(int at, int cpu, Credit2Runqueue rqd) {
        if (at < 0) {
            rqd.byStartFirst = cpu;
        } else {
            byStartNext[at] = cpu;
        }
    }

    /** The pCPU before {@code at} becomes {@code cpu}; at -1, the list's last. */
    private void setPrevOf(int at, int cpu, Credit2Runqueue rqd) {
        if (at < 0) {
            rqd.byStartLast = cpu;
        } else {
            byStartPrev[at] = cpu;
        }
    }

    /** The list holds rqd's pCPUs once each, in non-decreasing start time (checked with -ea). */
    private boolean inStartOrder(Credit2Runqueue rqd) {
        int count = 0;
        long last = Long.MIN_VALUE;
        for (int c = rqd.byStartFirst; c >= 0; c = byStartNext[c]) {
            if (!rqd.activeMask.get(c) || runStartOn[c] < last || ++count > n) {
                return false;
            }
            last = runStartOn[c];
        }
        int cpus = 0;
        for (long w : rqd.activeMask.words) {
            cpus += Long.bitCount(w);
        }
        return count == cpus;
    }

    /** The pCPU to tickle for snew queued in rqd, or -1 for none. */
    int choose(Credit2Vcpu snew, Credit2Runqueue rqd, long now) {
        return version.smtAwareTickle() ? modern(snew, rqd, now) : legacy(snew, rqd, now);
    }

    private int legacy(Credit2Vcpu snew, Credit2Runqueue rqd, long now) {
        Vcpu v = snew.vcpu;
        int cpu = v.processor;
        if (!rqd.tickled.get(cpu) && probe.creditOn(cpu, now) < snew.credit) {
            return cpu;
        }
        int i = cycleIdleUntickled(cpu, rqd, snew, false, false);
        if (i >= 0) {
            return i;
        }
        int ipid = -1;
        long lowest = Long.MAX_VALUE;
        long[] active = rqd.activeMask.words;
        long[] idle = rqd.idle.words;
        long[] tickled = rqd.tickled.words;
        for (int w = 0; w < active.length; w++) {
            // busy candidates: active & ~idle & ~tickled & hard affinity, in increasing order
            for (long busy = active[w] & ~idle[w] & ~tickled[w]; busy != 0; busy &= busy - 1) {
                int c = (w << 6) + Long.numberOfTrailingZeros(busy);
                if (!snew.allowedOn(c)) {
                    continue;
                }
                long cr = probe.creditOn(c, now);
                if (cr < lowest) {
                    lowest = cr;
                    ipid = c;
                }
            }
        }
        if (ipid == -1 || lowest + migrateResist > snew.credit) {
            return -1;
        }
        return ipid;
    }

    private int modern(Credit2Vcpu snew, Credit2Runqueue rqd, long now) {
        Vcpu v = snew.vcpu;
        int cpu = v.processor;
        if (rqd.idle.get(cpu) && !rqd.tickled.get(cpu) && v.hardAffinity.get(cpu)
                && v.hardAffinity.cardinality() == 1) {
            return cpu; // exclusive pinning
        }
        boolean soft = softVersion && v.hasSoftAffinity();
        // both steps below find nothing when smt_idle and idle & ~tickled are empty (the usual
        // case under load), so they are skipped then
        for (int step = 0; step < 2 && anyIdleUntickled(rqd); step++) {
            boolean softStep = step == 0;
            if (softStep && !soft) {
                continue;
            }
            int i = testOrCycle(cpu, rqd.smtIdle, snew, softStep, null);
            if (i >= 0) {
                return i;
            }
            i = cycleIdleUntickled(cpu, rqd, snew, softStep, true);
            if (i >= 0) {
                return i;
            }
        }
        int ipid = -1;
        long max = 0;
        if (busyCandidate(cpu, rqd, snew)) {
            long score = score(snew, cpu, soft, now);
            if (score > max) {
                max = score;
                ipid = cpu;
                // "If this is in new's soft affinity, just take it" (all pCPUs when it has none)
                if (!softVersion || snew.inSoft(cpu)) {
                    return ipid;
                }
            }
        }
        if (checkPreemptable) {
            return preemptableByStart(snew, rqd, cpu, soft, now, ipid, max);
        }
        // is_preemptable does not apply: every busy candidate is scored
        long[] active = rqd.activeMask.words;
        long[] idle = rqd.idle.words;
        long[] tickled = rqd.tickled.words;
        for (int w = 0; w < active.length; w++) {
            // busy candidates but cpu: active & ~idle & ~tickled & hard affinity, in increasing order
            long busy = active[w] & ~idle[w] & ~tickled[w];
            if (w == cpu >>> 6) {
                busy &= ~(1L << cpu);
            }
            for (; busy != 0; busy &= busy - 1) {
                int c = (w << 6) + Long.numberOfTrailingZeros(busy);
                if (!snew.allowedOn(c)) {
                    continue;
                }
                long score = score(snew, c, soft, now);
                if (score > max) {
                    max = score;
                    ipid = c;
                }
            }
        }
        return ipid;
    }

    /**
     * The busy scan of {@link #modern} when is_preemptable applies, over the pCPUs that it accepts
     * only (a prefix of the start order). The scan in pCPU order keeps the first strictly best
     * score; here pCPUs come in start order, so a tie goes to the lower pCPU, except that cpu's own
     * score (given as ipid / max) is never displaced by an equal one. tickle_score burns the
     * credits of each scored pCPU's vCPU: the same pCPUs are scored, each vCPU on its own, so
     * the order does not change any credit.
     */
    private int preemptableByStart(Credit2Vcpu snew, Credit2Runqueue rqd, int cpu, boolean soft, long now,
            int ipid, long max) {
        for (int c = rqd.byStartFirst; c >= 0; c = byStartNext[c]) {
            if (!isPreemptable(c, now)) {
                break; // false here and for every later pCPU (started no earlier)
            }
            if (c == cpu || !busyCandidate(c, rqd, snew)) {
                continue;
            }
            long score = score(snew, c, soft, now);
            if (score > max || (score == max && ipid >= 0 && ipid != cpu && c < ipid)) {
                max = score;
                ipid = c;
            }
        }
        return ipid;
    }

    /**
     * is_preemptable (4.8+, with a rate limit above the tolerance): what runs on cpu has run at
     * least the rate limit less CSCHED2_RATELIMIT_TICKLE_TOLERANCE; always true where it does not apply.
     */
    private boolean isPreemptable(int cpu, long now) {
        return !checkPreemptable || now - runStartOn[cpu] > ratelimit - RATELIMIT_TICKLE_TOLERANCE;
    }

    /** c in active & ~idle & ~tickled & hard affinity (c is a pCPU of the host). */
    private static boolean busyCandidate(int c, Credit2Runqueue rqd, Credit2Vcpu svc) {
        int w = c >>> 6;
        return (rqd.activeMask.words[w] & ~rqd.idle.words[w] & ~rqd.tickled.words[w] & (1L << c)) != 0
                && svc.allowedOn(c);
    }

    /** smt_idle or idle & ~tickled has a pCPU: else the idle steps of runq_tickle find none. */
    private static boolean anyIdleUntickled(Credit2Runqueue rqd) {
        long[] smtIdle = rqd.smtIdle.words;
        long[] idle = rqd.idle.words;
        long[] tickled = rqd.tickled.words;
        for (int w = 0; w < idle.length; w++) {
            if ((smtIdle[w] | (idle[w] & ~tickled[w])) != 0) {
                return true;
            }
        }
        return false;
    }

    /**
     * tickle_score: -1 if what runs there may not be preempted yet; else credit difference, minus
     * the resistance if remote; when positive (4.9+), +CREDIT_INIT if cpu is in new's soft
     * affinity and +CREDIT_INIT if it is not in the current vCPU's.
     */
    private long score(Credit2Vcpu snew, int cpu, boolean soft, long now) {
        // what runs on cpu, looked up once for is_preemptable (4.8+: it has run at least the rate
        // limit less 50 us of tolerance), the credit and the soft check
        Credit2Vcpu rc = runningOn[cpu];
        if (rc == null) {
            return -1; // nothing runs there: -1 whether or not is_preemptable applies (CSCHED2_IDLE_CREDIT)
        }
        if (!isPreemptable(cpu, now)) {
            return -1;
        }
        long cur = probe.creditOf(rc, now);
        if (cur == IDLE_CREDIT) {
            return -1;
        }
        long score = snew.credit - cur;
        if (snew.vcpu.processor != cpu) {
            score -= migrateResist;
        }
        if (score > 0 && softVersion) {
            if (snew.inSoft(cpu)) { // cpu in new's soft affinity
                score += creditInit;
            }
            if (!rc.inSoft(cpu)) { // cpu not in the current vCPU's soft affinity
                score += creditInit;
            }
        }
        return score;
    }

    private static boolean allowed(Credit2Vcpu svc, int c, boolean softStep) {
        return svc.allowedOn(c) && (!softStep || svc.vcpu.softAffinity.get(c));
    }

    /** An idle, untickled, allowed pCPU: {@code from} itself when {@code testFirst}, then cycling after it. */
    private int cycleIdleUntickled(int from, Credit2Runqueue rqd, Credit2Vcpu v, boolean softStep, boolean testFirst) {
        return testFirst ? testOrCycle(from, rqd.idle, v, softStep, rqd.tickled)
                : cycle(from, rqd.idle, v, softStep, rqd.tickled);
    }

    private int testOrCycle(int from, CpuMask set, Credit2Vcpu v, boolean softStep, CpuMask exclude) {
        if (from >= 0 && set.get(from) && allowed(v, from, softStep) && (exclude == null || !exclude.get(from))) {
            return from;
        }
        return cycle(from, set, v, softStep, exclude);
    }

    /** cpumask_cycle over set & affinity & ~exclude, starting after {@code from}, word by word. */
    private int cycle(int from, CpuMask set, Credit2Vcpu v, boolean softStep, CpuMask exclude) {
        long[] s = set.words;
        long[] x = exclude == null ? null : exclude.words;
        // first (from, n), then [0, from]
        int start = from + 1;
        for (int w = start >>> 6; w < s.length; w++) {
            long bits = x == null ? s[w] : s[w] & ~x[w];
            if (w == start >>> 6) {
                bits &= -1L << start;
            }
            for (; bits != 0; bits &= bits - 1) {
                int c = (w << 6) + Long.numberOfTrailingZeros(bits);
                if (allowed(v, c, softStep)) {
                    return c;
                }
            }
        }
        if (from < 0) {
            return -1;
        }
        int last = Math.min(from >>> 6, s.length - 1);
        for (int w = 0; w <= last; w++) {
            long bits = x == null ? s[w] : s[w] & ~x[w];
            if (w == from >>> 6) {
                bits &= -1L >>> (63 - (from & 63));
            }
            for (; bits != 0; bits &= bits - 1) {
                int c = (w << 6) + Long.numberOfTrailingZeros(bits);
                if (allowed(v, c, softStep)) {
                    return c;
                }
            }
        }
        return -1;
    }
}
