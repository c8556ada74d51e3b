package io.schedlab.engine.policies.xen;

import io.schedlab.engine.model.Vcpu;
import java.util.BitSet;

/**
 * Xen's two-step affinity balancing (xen/common/sched/private.h: for_each_affinity_balance_step,
 * affinity_balance_cpumask): every placement, tickle and steal decision is tried first against
 * soft affinity (intersected with hard), then against hard affinity.
 */
public final class AffinityBalance {
    public static final int SOFT = 0;
    public static final int HARD = 1;

    private AffinityBalance() {
    }

    /** True when step {@code step} should be skipped for v (soft step without a useful soft affinity). */
    public static boolean skip(Vcpu v, int step) {
        return step == SOFT && !v.hasSoftAffinity();
    }

    /** The pCPU mask for a balance step: soft & hard for SOFT, hard for HARD (a fresh copy). */
    public static BitSet mask(Vcpu v, int step) {
        BitSet m = (BitSet) v.hardAffinity.clone();
        if (step == SOFT) {
            m.and(v.softAffinity);
        }
        return m;
    }

    /** {@link #mask} written into {@code into} (cleared first), allocating nothing; returns {@code into}. */
    public static BitSet maskInto(Vcpu v, int step, BitSet into) {
        into.clear();
        into.or(v.hardAffinity);
        if (step == SOFT) {
            into.and(v.softAffinity);
        }
        return into;
    }

    /** cpumask_cycle: the first set bit after {@code from} (wrapping), or -1 when empty. */
    public static int cycle(int from, BitSet mask, int size) {
        int n = mask.nextSetBit(from + 1);
        if (n < 0 || n >= size) {
            n = mask.nextSetBit(0);
        }
        return n >= size ? -1 : n;
    }

    /** {@link #cycle(int, BitSet, int)} on a one-word mask (pCPUs 0..63): -1 when empty. */
    public static int cycle(int from, long mask) {
        long after = from >= Long.SIZE - 1 ? 0 : mask & (-1L << (from + 1));
        if (after != 0) {
            return Long.numberOfTrailingZeros(after);
        }
        return mask == 0 ? -1 : Long.numberOfTrailingZeros(mask);
    }

    /** cpumask_test_or_cycle: {@code from} itself when set, else {@link #cycle}. */
    public static int testOrCycle(int from, BitSet mask, int size) {
        return from >= 0 && mask.get(from) ? from : cycle(from, mask, size);
    }
}
