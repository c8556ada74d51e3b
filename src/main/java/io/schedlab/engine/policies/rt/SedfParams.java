package io.schedlab.engine.policies.rt;

import io.schedlab.engine.params.InvalidParameterException;
import io.schedlab.engine.params.ParameterSpec;
import io.schedlab.engine.params.Params;
import java.util.List;

/**
 * Parameters of {@code sedf} and {@code gedf} (xen/common/sched_sedf.c, RELEASE-4.5.0, the last release with
 * sEDF; removed in 4.6 by commit 038c6afe08).
 *
 * @param extraQuantumNanos EXTRA_QUANTUM: the slice of a vCPU running in extra time (500 us)
 * @param weightPeriodNanos WEIGHT_PERIOD: period of weighted and best-effort vCPUs (100 ms)
 * @param weightSafetyNanos WEIGHT_SAFETY: part of WEIGHT_PERIOD never handed out by weights (5 ms)
 * @param idleNanos the slice of an idle pCPU with nothing queued (SECONDS(1) in sedf_do_schedule)
 */
public record SedfParams(long extraQuantumNanos, long weightPeriodNanos, long weightSafetyNanos, long idleNanos) {
    static final String PERIOD = "periodUs";
    static final String SLICE = "sliceUs";
    static final String LATENCY = "latencyUs";
    static final String EXTRA = "extra";
    static final String WEIGHT = "weight";
    private static final String SRC = "xen/common/sched_sedf.c (RELEASE-4.5.0)";
    /** PERIOD_MIN 10 us, PERIOD_MAX 10 s, SLICE_MIN 5 us (sched_sedf.c). */
    static final long PERIOD_MIN_US = 10;
    static final long PERIOD_MAX_US = 10_000_000;
    static final long SLICE_MIN_US = 5;

    /** Policy-level parameters. */
    public static List<ParameterSpec> specs() {
        return List.of(
                ParameterSpec.integer("extraQuantumUs", 500, 10, 100_000, "us",
                        "slice of a vCPU running in extra time (after its slice, or best effort)", SRC + ": EXTRA_QUANTUM"),
                ParameterSpec.integer("weightPeriodMs", 100, 1, 10_000, "ms",
                        "period given to weighted and best-effort vCPUs", SRC + ": WEIGHT_PERIOD"),
                ParameterSpec.integer("weightSafetyMs", 5, 0, 10_000, "ms",
                        "part of the weight period never handed out by weights", SRC + ": WEIGHT_SAFETY"),
                ParameterSpec.integer("idleMs", 1000, 1, 100_000, "ms",
                        "slice of an idle pCPU whose queues are empty", SRC + ": sedf_do_schedule, SECONDS(1)"));
    }

    /** Per-VM and per-vCPU parameters: xl sched-sedf -d DOM -p -s -l -e -w. */
    public static List<ParameterSpec> vcpuSpecs() {
        return List.of(
                ParameterSpec.integer(PERIOD, 100_000, PERIOD_MIN_US, PERIOD_MAX_US, "us",
                        "period = relative deadline", SRC + ": WEIGHT_PERIOD default (sedf_alloc_vdata), PERIOD_MIN/MAX"),
                ParameterSpec.integer(SLICE, 0, 0, PERIOD_MAX_US, "us",
                        "guaranteed time per period; 0 = best effort (extra time only)",
                        SRC + ": sedf_alloc_vdata slice 0, SLICE_MIN 5 us"),
                ParameterSpec.integer(LATENCY, 0, 0, PERIOD_MAX_US, "us",
                        "latency hint; stored but without effect, as in 4.5 (its unblock path, unblock_long_cons_b, "
                                + "ignores it)", SRC + ": sedf_adjust stores latency; unblock_long_cons_b"),
                ParameterSpec.bool(EXTRA, true, "may run in extra time (round robin in EXTRA_QUANTUM slices)",
                        SRC + ": sedf_alloc_vdata status EXTRA_AWARE"),
                ParameterSpec.integer(WEIGHT, 0, 0, 65_535, "weight",
                        "0 = use period/slice; else the slice is this weight's share of the weight period on its "
                                + "pCPU (sedf_adjust_weights)", SRC + ": sedf_adjust_weights"));
    }

    /** sedf_adjust: slice <= period, and a slice is 0 (best effort) or at least SLICE_MIN. */
    static void check(Params p) {
        long slice = p.getLong(SLICE);
        if (slice > p.getLong(PERIOD)) {
            throw new InvalidParameterException(SLICE, "must be <= periodUs (" + p.getLong(PERIOD) + ")");
        }
        if (slice != 0 && slice < SLICE_MIN_US) {
            throw new InvalidParameterException(SLICE, "must be 0 (best effort) or >= " + SLICE_MIN_US
                    + " us (SLICE_MIN)");
        }
    }

    public static SedfParams from(Params p) {
        return new SedfParams(p.getLong("extraQuantumUs") * 1_000L, p.getLong("weightPeriodMs") * 1_000_000L,
                p.getLong("weightSafetyMs") * 1_000_000L, p.getLong("idleMs") * 1_000_000L);
    }
}
