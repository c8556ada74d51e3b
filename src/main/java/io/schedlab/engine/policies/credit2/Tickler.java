package io.schedlab.engine.policies.credit2;

import io.schedlab.engine.model.Topology;
import io.schedlab.engine.model.Vcpu;
import java.util.BitSet;

/**
 * credit2.c {@code runq_tickle}: which pCPU of the waking vCPU's run queue to poke, in the form
 * of the modelled release (scans allocate nothing: this runs on every wake and re-queue).
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

    /** What runs on a pCPU: its credit burned up to now ({@link #IDLE_CREDIT} when idle) and how long it has run. */
    interface CreditProbe {
        long creditOn(int cpu, long now);

        long ranFor(int cpu, long now);
    }

    /** CSCHED2_RATELIMIT_TICKLE_TOLERANCE: 50 us slack when peeking at others' run time. */
    static final long RATELIMIT_TICKLE_TOLERANCE = 50_000L;

    /** CSCHED2_IDLE_CREDIT: far below any vCPU's credit. */
    static final long IDLE_CREDIT = Long.MIN_VALUE / 4;

    private final Topology topo;
    private final int n;
    private final XenVersion version;
    private final long migrateResist;
    private final long creditInit;
    private final long ratelimit;
    private final CreditProbe probe;

    Tickler(Topology topo, XenVersion version, long migrateResist, long creditInit, long ratelimit,
            CreditProbe probe) {
        this.ratelimit = ratelimit;
        this.topo = topo;
        this.n = topo.size();
        this.version = version;
        this.migrateResist = migrateResist;
        this.creditInit = creditInit;
        this.probe = probe;
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
        int i = cycleIdleUntickled(cpu, rqd, v, false, false);
        if (i >= 0) {
            return i;
        }
        int ipid = -1;
        long lowest = Long.MAX_VALUE;
        for (int c = rqd.active.nextSetBit(0); c >= 0; c = rqd.active.nextSetBit(c + 1)) {
            if (rqd.idle.get(c) || rqd.tickled.get(c) || !v.hardAffinity.get(c)) {
                continue;
            }
            long cr = probe.creditOn(c, now);
            if (cr < lowest) {
                lowest = cr;
                ipid = c;
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
        if (v.hardAffinity.cardinality() == 1 && v.hardAffinity.get(cpu) && rqd.idle.get(cpu)
                && !rqd.tickled.get(cpu)) {
            return cpu; // exclusive pinning
        }
        boolean soft = version.softAffinity() && v.hasSoftAffinity();
        for (int step = 0; step < 2; step++) {
            boolean softStep = step == 0;
            if (softStep && !soft) {
                continue;
            }
            int i = testOrCycle(cpu, rqd.smtIdle, v, softStep, null);
            if (i >= 0) {
                return i;
            }
            i = cycleIdleUntickled(cpu, rqd, v, softStep, true);
            if (i >= 0) {
                return i;
            }
        }
        int ipid = -1;
        long max = 0;
        if (busyCandidate(cpu, rqd, v)) {
            long score = score(snew, cpu, soft, now);
            if (score > max) {
                max = score;
                ipid = cpu;
                // "If this is in new's soft affinity, just take it" (all pCPUs when it has none)
                if (!version.softAffinity() || inSoft(v, cpu)) {
                    return ipid;
                }
            }
        }
        for (int c = rqd.active.nextSetBit(0); c >= 0; c = rqd.active.nextSetBit(c + 1)) {
            if (c == cpu || !busyCandidate(c, rqd, v)) {
                continue;
            }
            long score = score(snew, c, soft, now);
            if (score > max) {
                max = score;
                ipid = c;
            }
        }
        return ipid;
    }

    /** Xen's cpu_soft_affinity: every pCPU when no soft affinity is set. */
    private static boolean inSoft(Vcpu v, int cpu) {
        return v.softAffinity.isEmpty() || v.softAffinity.get(cpu);
    }

    /** is_preemptable (4.8+): it has run at least the rate limit, less 50 us of tolerance. */
    private boolean preemptable(int cpu, long now) {
        if (!version.atLeast(8) || ratelimit <= RATELIMIT_TICKLE_TOLERANCE) {
            return true;
        }
        return probe.ranFor(cpu, now) > ratelimit - RATELIMIT_TICKLE_TOLERANCE;
    }

    private boolean busyCandidate(int c, Credit2Runqueue rqd, Vcpu v) {
        return rqd.active.get(c) && !rqd.idle.get(c) && !rqd.tickled.get(c) && v.hardAffinity.get(c);
    }

    /**
     * tickle_score: -1 if what runs there may not be preempted yet; else credit difference, minus
     * the resistance if remote; when positive (4.9+), +CREDIT_INIT if cpu is in new's soft
     * affinity and +CREDIT_INIT if it is not in the current vCPU's.
     */
    private long score(Credit2Vcpu snew, int cpu, boolean soft, long now) {
        if (!preemptable(cpu, now)) {
            return -1;
        }
        long cur = probe.creditOn(cpu, now);
        if (cur == IDLE_CREDIT) {
            return -1;
        }
        long score = snew.credit - cur;
        if (snew.vcpu.processor != cpu) {
            score -= migrateResist;
        }
        if (score > 0 && version.softAffinity()) {
            if (inSoft(snew.vcpu, cpu)) {
                score += creditInit;
            }
            Vcpu running = topo.pcpu(cpu).current;
            if (running != null && !inSoft(running, cpu)) {
                score += creditInit;
            }
        }
        return score;
    }

    private boolean allowed(Vcpu v, int c, boolean softStep) {
        return v.hardAffinity.get(c) && (!softStep || v.softAffinity.get(c));
    }

    /** An idle, untickled, allowed pCPU: {@code from} itself when {@code testFirst}, then cycling after it. */
    private int cycleIdleUntickled(int from, Credit2Runqueue rqd, Vcpu v, boolean softStep, boolean testFirst) {
        return testFirst ? testOrCycle(from, rqd.idle, v, softStep, rqd.tickled)
                : cycle(from, rqd.idle, v, softStep, rqd.tickled);
    }

    private int testOrCycle(int from, BitSet set, Vcpu v, boolean softStep, BitSet exclude) {
        if (from >= 0 && set.get(from) && allowed(v, from, softStep) && (exclude == null || !exclude.get(from))) {
            return from;
        }
        return cycle(from, set, v, softStep, exclude);
    }

    /** cpumask_cycle over set & affinity & ~exclude, starting after {@code from}. */
    private int cycle(int from, BitSet set, Vcpu v, boolean softStep, BitSet exclude) {
        for (int pass = 0; pass < 2; pass++) {
            int start = pass == 0 ? from + 1 : 0;
            int end = pass == 0 ? n : from + 1;
            for (int c = set.nextSetBit(start); c >= 0 && c < end; c = set.nextSetBit(c + 1)) {
                if (allowed(v, c, softStep) && (exclude == null || !exclude.get(c))) {
                    return c;
                }
            }
        }
        return -1;
    }
}
