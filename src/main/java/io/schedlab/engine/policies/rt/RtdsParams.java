package io.schedlab.engine.policies.rt;

import io.schedlab.engine.policies.xen.XenVersion;
import io.schedlab.engine.params.InvalidParameterException;
import io.schedlab.engine.params.ParameterSpec;
import io.schedlab.engine.params.Params;
import java.util.List;

/**
 * Parameters of {@code rtds} (xen/common/sched/rt.c, RELEASE-4.14.0 unless noted; sched_rt.c in 4.5/4.6).
 *
 * @param xenVersion release modelled: event-driven replenishment from 4.7 (commit 0709d59545: one timer on a
 *     sorted replenishment queue), before it a scheduler quantum of {@code tickUs}; extratime from 4.10
 *     (commit 463b958317)
 * @param tickNanos MAX_SCHEDULE of sched_rt.c 4.5/4.6 (1 ms): the longest a pCPU runs before rt_schedule
 *     runs again (and replenishes, __repl_update) when replenishment is not event-driven
 */
public record RtdsParams(XenVersion xenVersion, long tickNanos) {
    static final String PERIOD = "periodUs";
    static final String BUDGET = "budgetUs";
    static final String EXTRATIME = "extratime";
    private static final String SRC = "xen/common/sched/rt.c (RELEASE-4.14.0)";
    /** RTDS_MIN_PERIOD / RTDS_MIN_BUDGET: 10 us (rt.c). */
    static final long MIN_US = 10;
    /** Largest period accepted here (rt.c allows up to STIME_DELTA_MAX; 10 s keeps runs meaningful). */
    static final long MAX_PERIOD_US = 10_000_000;

    /** Policy-level parameters. */
    public static List<ParameterSpec> specs() {
        return List.of(
                ParameterSpec.choice("xenVersion", "latest", XenVersion.allowedValues(),
                        "Xen release to model: replenishment by a 1 ms scheduler quantum before 4.7, by one timer on "
                                + "a sorted replenishment queue from 4.7; extratime from 4.10",
                        "rt.c history: commit 0709d59545 (event driven, 4.7), commit 463b958317 (extratime, 4.10)"),
                ParameterSpec.integer("tickUs", 1000, 10, 100_000, "us",
                        "scheduler quantum before 4.7 (rt_schedule runs at least this often and replenishes)",
                        "xen/common/sched_rt.c (RELEASE-4.5.0): MAX_SCHEDULE = MILLISECS(1)"));
    }

    /** Per-vCPU (and, applied to every vCPU, per-VM) parameters: xl sched-rtds -d DOM [-v N] -p -b -e. */
    public static List<ParameterSpec> vcpuSpecs() {
        return List.of(
                ParameterSpec.integer(PERIOD, 10_000, MIN_US, MAX_PERIOD_US, "us",
                        "server period: the deadline is the end of each period, the budget is replenished at its start",
                        SRC + ": RTDS_DEFAULT_PERIOD 10 ms, RTDS_MIN_PERIOD 10 us"),
                ParameterSpec.integer(BUDGET, 4_000, MIN_US, MAX_PERIOD_US, "us",
                        "budget per period (kept while idle, discarded at the period's end: a deferrable server)",
                        SRC + ": RTDS_DEFAULT_BUDGET 4 ms, RTDS_MIN_BUDGET 10 us; rt_dom_cntl requires budget <= period"),
                ParameterSpec.bool(EXTRATIME, true,
                        "with the budget used up, keep running at a lower priority level (ignored before 4.10)",
                        SRC + ": rt_alloc_udata sets RTDS_extratime for every new unit"));
    }

    /** rt_dom_cntl: budget <= period. */
    static void check(Params p) {
        if (p.getLong(BUDGET) > p.getLong(PERIOD)) {
            throw new InvalidParameterException(BUDGET, "must be <= periodUs (" + p.getLong(PERIOD)
                    + "); xen/common/sched/rt.c rt_dom_cntl rejects budget > period");
        }
    }

    public static RtdsParams from(Params p) {
        return new RtdsParams(XenVersion.parse(p.getString("xenVersion")), p.getLong("tickUs") * 1_000L);
    }

    /** One timer on the replenishment queue (4.7+) instead of replenishing in every rt_schedule. */
    boolean eventDriven() {
        return xenVersion.atLeast(7);
    }

    /** Extratime and priority levels exist (4.10+). */
    boolean extratime() {
        return xenVersion.atLeast(10);
    }
}
