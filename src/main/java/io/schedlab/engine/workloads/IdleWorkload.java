package io.schedlab.engine.workloads;

import io.schedlab.engine.params.ParameterSpec;
import io.schedlab.engine.params.Params;
import io.schedlab.engine.workloads.WorkloadDescriptor;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.random.RandomGenerator;

/**
 * {@code idle}: a mostly idle guest such as dom0: each thread sleeps about {@code wakeIntervalMs}
 * (uniform jitter of +/- {@code jitter}), then computes {@code burstUs}. Endless; reports its
 * bursts per second.
 */
public final class IdleWorkload implements EndlessWorkload {
    public static final String TYPE = "idle";

    private final int threads;
    private final long intervalNanos;
    private final long burstNanos;
    private final double jitter;
    private final long workingSetKb;
    private long startedAt;
    private long bursts;

    public IdleWorkload(Params p) {
        this.threads = p.getInt("threads");
        this.intervalNanos = p.getLong("wakeIntervalMs") * 1_000_000L;
        this.burstNanos = p.getLong("burstUs") * 1_000L;
        this.jitter = p.getDouble("jitter");
        this.workingSetKb = p.getLong("workingSetKb");
    }

    /** Registry entry. */
    public static WorkloadDescriptor descriptor() {
        return new WorkloadDescriptor(TYPE, "mostly idle guest (dom0-like): short bursts at intervals", "bursts/s",
                List.of(ParameterSpec.integer("threads", 1, 1, 4096, "threads", "Guest threads.",
                                "one housekeeping thread, like an idle dom0"),
                        ParameterSpec.integer("wakeIntervalMs", 100, 1, 3_600_000, "ms",
                                "Mean sleep between bursts.", "dom0-like background activity (assumption)"),
                        ParameterSpec.integer("burstUs", 1_000, 1, 10_000_000, "us", "CPU work per burst.",
                                "seed 001 xm vcpu-list: an idle dom0's vCPUs used 0.4% (quiet pCPU 0) to 1.9% (pCPU 1"
                                        + " shared by two loops) of a pCPU; 1 ms per 100 ms = 1%"),
                        ParameterSpec.number("jitter", 0.1, 0, 1, "fraction",
                                "Uniform +/- jitter of the interval, so threads do not wake in lockstep.",
                                "avoids artificial synchronisation (assumption)"),
                        ParameterSpec.integer("workingSetKb", 64, 0, 1_048_576, "KiB",
                                "What a burst keeps hot in the caches (it evicts this much of others' data).",
                                "assumption: housekeeping touches a few dozen pages of kernel data, not a whole L2")),
                IdleWorkload::new);
    }

    @Override
    public void start(WorkloadEnv env) {
        startedAt = env.now();
        RandomGenerator random = env.random();
        Phase.Compute burst = new Phase.Compute(burstNanos, false);
        for (int i = 0; i < threads; i++) {
            env.spawn(new GuestThread() {
                private boolean computeNext;

                @Override
                public Phase next(long now) {
                    if (computeNext) {
                        computeNext = false;
                        return burst;
                    }
                    if (now > startedAt) {
                        bursts++;
                    }
                    computeNext = true;
                    double f = jitter == 0 ? 1.0 : 1.0 + jitter * (2 * random.nextDouble() - 1);
                    return new Phase.Sleep(Math.max(1, Math.round(intervalNanos * f)));
                }
            });
        }
    }

    @Override
    public long workingSetKb() {
        return workingSetKb;
    }

    @Override
    public WorkloadReport report(long elapsedNanos) {
        double seconds = elapsedNanos / 1e9;
        Map<String, Double> details = new LinkedHashMap<>();
        details.put("bursts", (double) bursts);
        return new WorkloadReport("burst rate", seconds > 0 ? bursts / seconds : 0, "bursts/s", true, null, details);
    }
}
