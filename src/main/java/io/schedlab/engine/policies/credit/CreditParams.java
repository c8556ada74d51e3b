package io.schedlab.engine.policies.credit;

import io.schedlab.engine.policies.xen.XenSchedParams;
import io.schedlab.engine.policies.xen.XenVersion;
import io.schedlab.engine.params.ParameterSpec;
import io.schedlab.engine.params.Params;
import java.util.List;

/**
 * Tunables of the credit (credit1) scheduler, in the units Xen uses; defaults are Xen's
 * (xen/common/sched/credit.c: CSCHED_DEFAULT_TSLICE_MS, CSCHED_TICKS_PER_TSLICE,
 * CSCHED_CREDITS_PER_MSEC; xen/include/public/sysctl.h: XEN_SYSCTL_CSCHED_*). {@code xenVersion} selects the
 * release whose wake-up and rate-limit rules apply (see {@link #kicksAwayOnlyToIdlers()},
 * {@link #boostsMigratingWake()}, {@link #ratelimitSliceIsRemainder()}, {@link #loadBalanceRatelimitNanos()});
 * every other rule is today's.
 */
public record CreditParams(int tsliceMs, int ticksPerTslice, int creditsPerMs, int ratelimitUs,
        int vcpuMigrationDelayUs, int loadBalanceRatelimitUs, boolean tickleOneIdle, XenVersion xenVersion) {

    /** Today's release (xenVersion "latest"). */
    public CreditParams(int tsliceMs, int ticksPerTslice, int creditsPerMs, int ratelimitUs, int vcpuMigrationDelayUs,
            int loadBalanceRatelimitUs, boolean tickleOneIdle) {
        this(tsliceMs, ticksPerTslice, creditsPerMs, ratelimitUs, vcpuMigrationDelayUs, loadBalanceRatelimitUs,
                tickleOneIdle, XenVersion.parse("latest"));
    }

    /** Parameter list for the registry, with bounds and sources. */
    public static List<ParameterSpec> specs() {
        String src = "xen/common/sched/credit.c";
        return List.of(
                ParameterSpec.integer("tsliceMs", 30, 1, 1000, "ms",
                        "timeslice; accounting runs once per timeslice",
                        src + ": CSCHED_DEFAULT_TSLICE_MS; sched_credit_tslice_ms 1-1000 (XEN_SYSCTL_CSCHED_TSLICE_MIN/MAX)"),
                ParameterSpec.integer("ticksPerTslice", 3, 1, 100, null,
                        "credit-burning ticks per timeslice (tick = tslice / ticks)",
                        src + ": CSCHED_TICKS_PER_TSLICE"),
                ParameterSpec.integer("creditsPerMs", 10, 1, 1000, "credits/ms",
                        "credits a running vCPU burns per millisecond", src + ": CSCHED_CREDITS_PER_MSEC"),
                XenSchedParams.ratelimitUs(
                        "minimum run time before a non-yielding vCPU is preempted (0 = off), clamped to the timeslice"),
                ParameterSpec.integer("vcpuMigrationDelayUs", 0, 0, 100_000_000, "us",
                        "a vCPU that ran within this time is cache-hot and not stolen (0 = off; 1000 suggested by the docs)",
                        src + ": vcpu_migration_delay / __csched_vcpu_is_cache_hot; docs/misc/xen-command-line"),
                ParameterSpec.integer("loadBalanceRatelimitUs", 1000, 0, 1_000_000, "us",
                        "a pCPU runs work stealing at most once per this period (0 = every schedule); from xenVersion 4.18,"
                                + " before it every schedule",
                        src + ": CSCHED_DEFAULT_LOAD_BALANCE_RATELIMIT_US (commit 'credit: Limit load balancing to once per millisecond', 2023)"),
                ParameterSpec.bool("tickleOneIdle", true,
                        "on wake tickle one suitable idle pCPU (true) or all of them",
                        src + ": opt_tickle_one_idle (boot option tickle_one_idle_cpu)"),
                ParameterSpec.choice("xenVersion", "latest", XenVersion.allowedValues(),
                        "Xen release whose wake-up rules apply: before 4.7 a waking vCPU kicks the running one"
                                + " away even when no idle pCPU may take it, and a vCPU woken by its own migration is"
                                + " boosted; before 4.8 a rate-limited vCPU gets a whole rate limit as its next slice;"
                                + " also the release of the creation placement; before 4.18 there is no load-balance rate limit"
                                + " (loadBalanceRatelimitUs is ignored)",
                        "xen/common/sched_credit.c: commits f02a5760c75c and 66c7449a4dae (both 4.7.0),"
                                + " 0053127890eb (4.8.0), 58feb9e0ac (4.18.0)"));
    }

    /** From normalized registry params (every default filled in). */
    public static CreditParams from(Params p) {
        return new CreditParams(p.getInt("tsliceMs"), p.getInt("ticksPerTslice"), p.getInt("creditsPerMs"),
                p.getInt("ratelimitUs"), p.getInt("vcpuMigrationDelayUs"), p.getInt("loadBalanceRatelimitUs"),
                p.getBoolean("tickleOneIdle"), XenVersion.parse(p.getString("xenVersion")));
    }

    /** Xen's defaults. */
    public static CreditParams defaults() {
        return new CreditParams(30, 3, 10, 1000, 0, 1000, true);
    }

    public long tsliceNanos() {
        return tsliceMs * 1_000_000L;
    }

    public long tickNanos() {
        return tsliceNanos() / ticksPerTslice;
    }

    /** Credits one pCPU hands out per timeslice (csched_private.credits_per_tslice). */
    public int creditsPerTslice() {
        return creditsPerMs * tsliceMs;
    }

    /**
     * Whether __runq_tickle marks the running vCPU for migration (kicks it away) only when an idle pCPU may take
     * it: commit f02a5760c75c "credit1: on vCPU wakeup, kick away current only if makes sense" (Xen 4.7.0).
     * Before it the running vCPU was kicked whenever the waking one beat it and no idle pCPU suited the waker.
     */
    public boolean kicksAwayOnlyToIdlers() {
        return xenVersion.atLeast(7);
    }

    /**
     * Whether a vCPU woken by vcpu_migrate (not by unblocking) is boosted like an unblocking one: up to 4.6,
     * csched_vcpu_wake boosted every waking UNDER vCPU; commit 66c7449a4dae "credit1: avoid boosting vCPUs
     * being just migrated" (Xen 4.7.0) flags the migration in csched_cpu_pick and skips the boost.
     */
    public boolean boostsMigratingWake() {
        return !xenVersion.atLeast(7);
    }

    /**
     * Whether a vCPU kept by the rate limit gets what remains of the limit as its next slice (commit
     * 0053127890eb "xen: credit1: return the 'time remaining to the limit' as next timeslice", Xen 4.8.0);
     * before it csched_schedule returned the whole sched_ratelimit_us.
     */
    public boolean ratelimitSliceIsRemainder() {
        return xenVersion.atLeast(8);
    }

    /**
     * The load-balance rate limit in ns as the modelled release applies it: load_balance_ratelimit exists from
     * Xen 4.18 (commit 58feb9e0ac "credit: Limit load balancing to once per millisecond", first in
     * RELEASE-4.18.0); before it csched_schedule calls csched_load_balance every time the best local vCPU is
     * OVER or IDLE (xen/common/sched_credit.c RELEASE-4.6.0), i.e. a limit of 0.
     */
    public long loadBalanceRatelimitNanos() {
        return xenVersion.atLeast(18) ? loadBalanceRatelimitUs * 1_000L : 0L;
    }

    /** Rate limit in ns, clamped to the timeslice as csched_init/csched_sys_cntl do (0 = off). */
    public long ratelimitNanos() {
        return Math.min(ratelimitUs * 1_000L, tsliceNanos());
    }
}
