package io.schedlab.engine.policies.linux;

import io.schedlab.engine.params.InvalidParameterException;
import io.schedlab.engine.params.ParameterSpec;
import io.schedlab.engine.params.Params;

/**
 * EEVDF's per-task slice request (6.12+): a VM's {@code sliceUs} is what sched_setattr's
 * {@code sched_attr.sched_runtime} asks for each of its vCPU threads (kernel/sched/syscalls.c __setparam_fair,
 * commit 857b158dc5e8 "sched/eevdf: Use sched_attr::sched_runtime to set request/slice suggestion").
 */
final class EevdfSlices {
    static final String SLICE_US = "sliceUs";
    /** __setparam_fair clamps a request to [NSEC_PER_MSEC / 10, NSEC_PER_MSEC * 100]: 0.1 .. 100 ms. */
    static final long MIN_SLICE_US = 100;
    static final long MAX_SLICE_US = 100_000;

    private EevdfSlices() {
    }

    static ParameterSpec vmSpec() {
        return ParameterSpec.integer(SLICE_US, 0, 0, MAX_SLICE_US, "us",
                "6.12+: the slice each vCPU thread of the VM requests (sched_attr.sched_runtime): its deadline is"
                        + " this far ahead instead of the base slice's; 0 = the base slice (no request); the kernel"
                        + " takes 100..100000 us",
                "kernel/sched/syscalls.c __setparam_fair: clamp_t(attr->sched_runtime, NSEC_PER_MSEC/10,"
                        + " NSEC_PER_MSEC*100) (commit 857b158dc5e8, 6.12)");
    }

    /** A request below the kernel's 0.1 ms floor is refused rather than silently raised to it. */
    static void check(Params p) {
        Object v = p.asMap().get(SLICE_US);
        if (v instanceof Number n && n.longValue() != 0 && n.longValue() < MIN_SLICE_US) {
            throw new InvalidParameterException(SLICE_US, "must be 0 (the base slice) or " + MIN_SLICE_US + ".."
                    + MAX_SLICE_US + " us (the range __setparam_fair accepts)");
        }
    }

    /** The VM's request in ns, 0 when it makes none (or its policy declares no such parameter). */
    static long customSliceNanos(Params vmParams) {
        Object v = vmParams == null ? null : vmParams.asMap().get(SLICE_US);
        return v instanceof Number n ? n.longValue() * 1000 : 0;
    }
}
