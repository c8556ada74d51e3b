package io.schedlab.engine.policies.credit2;

import io.schedlab.engine.policies.xen.XenSchedParams;
import io.schedlab.engine.policies.xen.XenVersion;
import io.schedlab.engine.params.ParameterSpec;
import io.schedlab.engine.params.Params;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.Violation;
import java.util.List;

/**
 * Tunables of credit2 with Xen's defaults (xen/common/sched/credit2.c: CSCHED2_CREDIT_INIT,
 * CSCHED2_MIN_TIMER, CSCHED2_MAX_TIMER, CSCHED2_CARRYOVER_MAX, CSCHED2_MIGRATE_COMPENSATION,
 * opt_migrate_resist, opt_load_window_shift, opt_underload/overload_balance_tolerance,
 * CSCHED2_BDGT_REPL_PERIOD, opt_runqueue, opt_max_cpus_runqueue). {@code runqueue} "default"
 * and {@code maxCpusPerRunqueue} -1 take the value of {@code xenVersion}.
 */
public record Credit2Params(XenVersion xenVersion, String runqueue, int maxCpusPerRunqueue, int ratelimitUs,
        int migrateResistUs, int migrateCompensationUs, int creditInitUs, int creditMinUs, int carryoverMaxUs,
        int minTimerUs, int maxTimerUs, int loadWindowShift, int underloadBalanceTolerance,
        int overloadBalanceTolerance, int budgetReplPeriodMs) {

    public static final List<String> RUNQUEUES = List.of("default", "cpu", "core", "socket", "node", "all");

    /** Parameter list for the registry. */
    public static List<ParameterSpec> specs() {
        String src = "xen/common/sched/credit2.c";
        return List.of(
                ParameterSpec.choice("xenVersion", "latest", XenVersion.allowedValues(),
                        "Xen release to model: sets the run-queue default (socket <=4.6, core 4.7, socket >=4.8), "
                                + "SMT-aware tickling (>=4.7), soft affinity (>=4.9), caps (>=4.10), 16 pCPUs per run queue (>=4.14)",
                        src + " history; docs/misc/xen-command-line (credit2_runqueue, sched_credit2_max_cpus_runqueue)"),
                ParameterSpec.choice("runqueue", "default", RUNQUEUES,
                        "run-queue arrangement; default = the one of xenVersion", src + ": opt_runqueue (credit2_runqueue)"),
                ParameterSpec.integer("maxCpusPerRunqueue", -1, -1, 4096, "pCPUs",
                        "split run queues above this many pCPUs (-1 = version default: 16 from 4.14, else unlimited; 0 = unlimited)",
                        src + ": opt_max_cpus_runqueue (sched_credit2_max_cpus_runqueue, default 16)"),
                XenSchedParams.ratelimitUs(
                        "minimum run time before a non-yielding vCPU is preempted (0 = off); credit2 has it from Xen 4.8"),
                ParameterSpec.integer("migrateResistUs", 500, 0, 100_000, "us",
                        "credit advantage needed to pull a vCPU that last ran on another pCPU, or to preempt a remote pCPU",
                        src + ": opt_migrate_resist (sched_credit2_migrate_resist), CSCHED2_MIGRATE_RESIST"),
                ParameterSpec.integer("migrateCompensationUs", 50, 0, 10_000, "us",
                        "credit added to a vCPU each time it moves to another pCPU (cold-cache compensation)",
                        src + ": CSCHED2_MIGRATE_COMPENSATION"),
                ParameterSpec.integer("creditInitUs", 10_000, 100, 1_000_000, "us",
                        "credit added at each reset (also the soft-affinity bonus when tickling)", src + ": CSCHED2_CREDIT_INIT"),
                ParameterSpec.integer("creditMinUs", -10_000, -1_000_000, 0, "us",
                        "lower bound of credit", "scheduler-facts.md: CREDIT_MIN = -CREDIT_INIT"),
                ParameterSpec.integer("carryoverMaxUs", 500, 0, 1_000_000, "us",
                        "credit kept above CREDIT_INIT across a reset", src + ": CSCHED2_CARRYOVER_MAX (= CSCHED2_MIN_TIMER)"),
                ParameterSpec.integer("minTimerUs", 500, 10, 1_000_000, "us",
                        "shortest time slice", src + ": CSCHED2_MIN_TIMER"),
                ParameterSpec.integer("maxTimerUs", -1, -1, 10_000_000, "us",
                        "longest time slice, and up to 4.6 the period at which an idle pCPU re-runs the scheduler"
                                + " (-1 = version default: 2,000 up to 4.7, creditInitUs from 4.8; else at least 100)",
                        "xen/common/sched_credit2.c RELEASE-4.7.0: CSCHED2_MAX_TIMER MILLISECS(2); 4.8+:"
                                + " CSCHED2_CREDIT_INIT (da92ec5bd1 'relax CSCHED2_MAX_TIMER')"),
                ParameterSpec.integer("loadWindowShift", -1, -1, 40, "log2 ns",
                        "load averaging window = 2^shift ns (-1 = version default: 28 = ~268 ms up to 4.7, 30 = ~1.07 s"
                                + " from 4.8); values below 14 are raised to 14 (2^4 sampling units of 2^10 ns), as Xen"
                                + " raises a shift below LOADAVG_WINDOW_SHIFT_MIN",
                        "xen/common/sched_credit2.c 4.6: opt_load_window_shift 18 in units of 2^LOADAVG_GRANULARITY_SHIFT"
                                + " (10) ns; 4.8+: LOADAVG_WINDOW_SHIFT 30 ns"),
                ParameterSpec.integer("underloadBalanceTolerance", 0, -8, 8, "log2",
                        "balance when below 100% load only if the load difference >= 2^this", src + ": opt_underload_balance_tolerance"),
                ParameterSpec.integer("overloadBalanceTolerance", -3, -8, 8, "log2",
                        "balance when at or above 100% load if the load difference >= 2^this", src + ": opt_overload_balance_tolerance"),
                ParameterSpec.integer("budgetReplPeriodMs", 10, 1, 10_000, "ms",
                        "cap budget replenishment period", src + ": CSCHED2_BDGT_REPL_PERIOD"));
    }

    public static Credit2Params from(Params p) {
        return new Credit2Params(XenVersion.parse(p.getString("xenVersion")), p.getString("runqueue"),
                p.getInt("maxCpusPerRunqueue"), p.getInt("ratelimitUs"), p.getInt("migrateResistUs"),
                p.getInt("migrateCompensationUs"), p.getInt("creditInitUs"), p.getInt("creditMinUs"),
                p.getInt("carryoverMaxUs"), p.getInt("minTimerUs"), p.getInt("maxTimerUs"), p.getInt("loadWindowShift"),
                p.getInt("underloadBalanceTolerance"), p.getInt("overloadBalanceTolerance"),
                p.getInt("budgetReplPeriodMs"));
    }

    /** Xen defaults for a given release ("latest", "4.6", ...). */
    public static Credit2Params defaults(String version) {
        return new Credit2Params(XenVersion.parse(version), "default", -1, 1000, 500, 50, 10_000, -10_000, 500, 500,
                -1, -1, 0, -3, 10);
    }

    public Credit2Params withRunqueue(String rq) {
        return new Credit2Params(xenVersion, rq, maxCpusPerRunqueue, ratelimitUs, migrateResistUs,
                migrateCompensationUs, creditInitUs, creditMinUs, carryoverMaxUs, minTimerUs, maxTimerUs,
                loadWindowShift, underloadBalanceTolerance, overloadBalanceTolerance, budgetReplPeriodMs);
    }

    public Credit2Params withRatelimitUs(int us) {
        return new Credit2Params(xenVersion, runqueue, maxCpusPerRunqueue, us, migrateResistUs,
                migrateCompensationUs, creditInitUs, creditMinUs, carryoverMaxUs, minTimerUs, maxTimerUs,
                loadWindowShift, underloadBalanceTolerance, overloadBalanceTolerance, budgetReplPeriodMs);
    }

    /** The arrangement actually used: explicit value, else the version's default. */
    public String effectiveRunqueue() {
        return "default".equals(runqueue) ? xenVersion.defaultRunqueue() : runqueue;
    }

    /** log2 of the load window in ns actually used: explicit value, else the version's. */
    public int effectiveLoadWindowShift() {
        if (loadWindowShift < 0) {
            return xenVersion.loadWindowShift();
        }
        // sched_credit2.c: a window below LOADAVG_WINDOW_SHIFT_MIN (4) sampling units is raised to it
        return Math.max(loadWindowShift, xenVersion.loadGranularityShift() + LOAD_WINDOW_SHIFT_MIN);
    }

    /**
     * The longest time slice actually used, in us: explicit value (at least {@link #MIN_MAX_TIMER_US}), else
     * the version's CSCHED2_MAX_TIMER: 2 ms up to 4.7, CSCHED2_CREDIT_INIT from 4.8 (da92ec5bd1).
     */
    public int effectiveMaxTimerUs() {
        if (maxTimerUs >= 0) {
            return maxTimerUs;
        }
        return xenVersion.maxTimerIsCreditInit() ? creditInitUs : LEGACY_MAX_TIMER_US;
    }

    /** CSCHED2_MAX_TIMER up to 4.7: MILLISECS(2) (sched_credit2.c RELEASE-4.7.0). */
    static final int LEGACY_MAX_TIMER_US = 2_000;
    /** The shortest explicit maxTimerUs (-1 aside): a slice bound below it would only multiply timer events. */
    static final int MIN_MAX_TIMER_US = 100;

    /** The rule the parameter's bounds cannot express: maxTimerUs is -1 (the version's) or at least 100 us. */
    static List<Violation> violations(ExperimentSpec s) {
        Object raw = s.scheduler() == null || s.scheduler().params() == null ? null
                : s.scheduler().params().get("maxTimerUs");
        if (raw instanceof Number n && n.longValue() >= 0 && n.longValue() < MIN_MAX_TIMER_US) {
            return List.of(new Violation("/scheduler/params/maxTimerUs",
                    "must be -1 (the xenVersion's CSCHED2_MAX_TIMER) or at least " + MIN_MAX_TIMER_US + " us"));
        }
        return List.of();
    }

    /** Max pCPUs per run queue actually used (0 = unlimited). */
    public int effectiveMaxCpusPerRunqueue() {
        return maxCpusPerRunqueue < 0 ? xenVersion.defaultMaxCpusPerRunqueue() : maxCpusPerRunqueue;
    }

    /** sched_credit2.c LOADAVG_WINDOW_SHIFT_MIN: the window spans at least 2^4 sampling units. */
    static final int LOAD_WINDOW_SHIFT_MIN = 4;

    static long us(int us) {
        return us * 1_000L;
    }
}
