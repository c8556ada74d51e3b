package io.schedlab.engine.policies.linux;

import io.schedlab.engine.params.ParameterSpec;
import io.schedlab.engine.params.Params;
import java.util.ArrayList;
import java.util.List;

/**
 * The Linux fair-class constants of one run, from the policy's parameters and the release that
 * {@code kernelVersion} names. Granularities are the unscaled sysctl values; {@link #scale} applies
 * sysctl_sched_tunable_scaling (kernel/sched/fair.c get_update_sysctl_factor).
 */
final class LinuxParams {
    static final String KERNEL_VERSION = "kernelVersion";

    final String kernelVersion;
    final long latencyNanos;
    final long minGranularityNanos;
    final long wakeupGranularityNanos;
    final int nrLatency;
    final long baseSliceNanos;
    final String tunableScaling;
    final long migrationCostNanos;
    final int imbalancePct;
    final int imbalancePctSmt;
    final int busyFactor;
    final int cacheNiceTriesLlc;
    final int cacheNiceTriesNuma;
    final boolean gentleFairSleepers;
    final boolean startDebit;
    final boolean runToParity;
    final boolean placeLag;
    final boolean placeDeadlineInitial;
    /**
     * PREEMPT_SHORT and per-task slices (sched_attr.sched_runtime), both from 6.12 (commits 85e511df3cec and
     * 857b158dc5e8): false before that release whatever the parameter says.
     */
    final boolean preemptShort;
    final boolean customSlices;
    /**
     * DELAY_DEQUEUE with DELAY_ZERO (commit 152e11f6df29 "sched/fair: Implement delayed dequeue", 6.12): false
     * before that release whatever the parameter says.
     */
    final boolean delayDequeue;
    final long tickNanos;
    /**
     * HRTICK: a slice's end is noticed at its exact time (hrtick_start_fair's timer) instead of at the next
     * scheduler tick; off by default (kernel/sched/features.h SCHED_FEAT(HRTICK, false)).
     */
    final boolean hrtick;

    LinuxParams(Params p, boolean eevdf) {
        kernelVersion = p.getString(KERNEL_VERSION);
        latencyNanos = eevdf ? 0 : p.getLong("latencyNs");
        minGranularityNanos = eevdf ? 0 : p.getLong("minGranularityNs");
        wakeupGranularityNanos = eevdf ? 0 : p.getLong("wakeupGranularityNs");
        nrLatency = eevdf ? 0 : p.getInt("nrLatency");
        gentleFairSleepers = !eevdf && p.getBoolean("gentleFairSleepers");
        startDebit = !eevdf && p.getBoolean("startDebit");
        long slice = eevdf ? p.getLong("baseSliceNs") : 0;
        // 0.75 ms in 6.6..6.14, 0.70 ms from 6.15 (commit 2ae891b8, "sched: Reduce the default slice").
        baseSliceNanos = !eevdf ? 0 : slice > 0 ? slice : atLeast(kernelVersion, 6, 15) ? 700_000L : 750_000L;
        runToParity = eevdf && p.getBoolean("runToParity");
        placeLag = eevdf && p.getBoolean("placeLag");
        placeDeadlineInitial = eevdf && p.getBoolean("placeDeadlineInitial");
        customSlices = eevdf && atLeast(kernelVersion, 6, 12);
        preemptShort = customSlices && p.getBoolean("preemptShort");
        delayDequeue = customSlices && p.getBoolean("delayDequeue");
        tickNanos = 1_000_000_000L / p.getInt("hz");
        hrtick = p.getBoolean("hrtick");
        tunableScaling = p.getString("tunableScaling");
        migrationCostNanos = p.getLong("migrationCostNs");
        // sd_init: imbalance_pct 117 and busy_factor 16 in recent kernels, 125 and 32 before (the 5.10 cut-over
        // is UNVERIFIED; the values are from kernel/sched/topology.c of the releases).
        boolean recent = atLeast(kernelVersion, 5, 10);
        int pct = p.getInt("imbalancePct");
        imbalancePct = pct > 0 ? pct : recent ? 117 : 125;
        int busy = p.getInt("busyFactor");
        busyFactor = busy > 0 ? busy : recent ? 16 : 32;
        imbalancePctSmt = p.getInt("imbalancePctSmt");
        cacheNiceTriesLlc = p.getInt("cacheNiceTriesLlc");
        cacheNiceTriesNuma = p.getInt("cacheNiceTriesNuma");
    }

    /** sysctl_sched_tunable_scaling: none = 1, linear = min(cpus, 8), log = 1 + ilog2(min(cpus, 8)). */
    static long factor(String scaling, int cpus) {
        int c = Math.min(cpus, 8);
        return switch (scaling) {
            case "none" -> 1;
            case "linear" -> c;
            default -> 1 + (31 - Integer.numberOfLeadingZeros(c));
        };
    }

    static boolean atLeast(String version, int major, int minor) {
        String[] parts = version.split("\\.");
        int ma = Integer.parseInt(parts[0]);
        int mi = parts.length > 1 ? Integer.parseInt(parts[1]) : 0;
        return ma > major || (ma == major && mi >= minor);
    }

    /** Parameters both fair classes share: scaling, cache-hot rule, balancing. */
    static List<ParameterSpec> common() {
        List<ParameterSpec> out = new ArrayList<>();
        out.add(ParameterSpec.choice("tunableScaling", "log", List.of("none", "log", "linear"),
                "sysctl_sched_tunable_scaling: how granularities grow with the CPU count (log: x (1 + ilog2(min(cpus, 8))))",
                "kernel/sched/fair.c sysctl_sched_tunable_scaling = SCHED_TUNABLESCALING_LOG"));
        out.add(ParameterSpec.integer("migrationCostNs", 500_000, 0, 1_000_000_000L, "ns",
                "sysctl_sched_migration_cost: a task that ran this recently is cache-hot and not pulled by the balancer",
                "kernel/sched/fair.c sysctl_sched_migration_cost = 500000UL"));
        out.add(ParameterSpec.integer("imbalancePct", 0, 0, 1000, "%",
                "imbalance_pct of the MC, PKG and NUMA domains (busiest must exceed local x pct/100); 0 = the "
                        + "release's: 117 from 5.10, 125 before",
                "kernel/sched/topology.c sd_init .imbalance_pct"));
        out.add(ParameterSpec.integer("imbalancePctSmt", 110, 100, 1000, "%",
                "imbalance_pct of the SMT domain", "kernel/sched/topology.c sd_init: SD_SHARE_CPUCAPACITY -> 110"));
        out.add(ParameterSpec.integer("busyFactor", 0, 0, 1000, "x",
                "a busy CPU balances busy_factor times less often; 0 = the release's: 16 from 5.10, 32 before",
                "kernel/sched/topology.c sd_init .busy_factor"));
        out.add(ParameterSpec.integer("cacheNiceTriesLlc", 1, 0, 100, "tries",
                "failed balances in an MC/PKG domain before a cache-hot task may move",
                "kernel/sched/topology.c sd_init: SD_SHARE_PKG_RESOURCES -> cache_nice_tries = 1"));
        out.add(ParameterSpec.integer("cacheNiceTriesNuma", 2, 0, 100, "tries",
                "failed balances in a NUMA domain before a cache-hot task may move",
                "kernel/sched/topology.c sd_init: SD_NUMA -> cache_nice_tries = 2"));
        out.add(ParameterSpec.integer("hz", 250, 100, 1000, "Hz",
                "CONFIG_HZ: the tick, at which a running task's slice end is noticed (task_tick_fair) unless hrtick;"
                        + " EEVDF's lag clamp uses TICK_NSEC", "Linux default config CONFIG_HZ_250"));
        out.add(ParameterSpec.bool("hrtick", false,
                "a slice's end preempts at its exact time (a high-resolution timer per slice) instead of at the next"
                        + " tick (or, EEVDF, the next update_curr of a wake-up on that CPU)",
                "kernel/sched/features.h SCHED_FEAT(HRTICK, false); kernel/sched/fair.c hrtick_start_fair"));
        return out;
    }
}
