package io.schedlab.engine.workloads;

import io.schedlab.engine.params.ParameterSpec;
import io.schedlab.engine.params.Params;
import io.schedlab.engine.workloads.WorkloadDescriptor;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * An interactive guest: threads sleep (think time, exponential with mean {@code thinkMeanMs}), wake,
 * run a short burst (lognormal, mean {@code burstMeanUs}, cv {@code burstCv}) and sleep again.
 * The result is the wake-up latency: from the end of a sleep to the moment the thread runs again,
 * which includes waiting for the hypervisor to run the vCPU and for the guest to run the thread.
 * <p>
 * How it is measured, with the Phase contract only: right after each sleep the thread runs a
 * 1 ns {@link Phase.Compute} marker. That marker can only finish once the thread is on a pCPU, so
 * the latency is {@code (time the marker ends) - (sleep end) - 1 ns}. The engine measures its own
 * thread-ready-to-running latency per VM as well (VmResult.wakeLatency); this one is the guest's view
 * up to the first useful instruction, so it also includes a cold-cache warm-up after a migration. Kept in an
 * HdrHistogram (memory does not grow with the run) and reported as percentiles in the details.
 */
public final class InteractiveWorkload implements Workload {

    static final String TYPE = "interactive";
    static final long MARKER_NANOS = 1;
    /** The marker phase (immutable, so one instance serves every thread). */
    private static final Phase.Compute MARKER = new Phase.Compute(MARKER_NANOS, false);
    /** Highest latency the histogram tracks: one hour, 2 significant digits (~1% error). */
    private static final long MAX_TRACKED_NANOS = 3_600_000_000_000L;

    private final int threads;
    private final DurationDistribution think;
    private final DurationDistribution burst;
    private final long wakeupsPerThread;
    private final long workingSetKb;
    private final Histogram latency = new Histogram(1, MAX_TRACKED_NANOS, 2);

    private int exited;
    private int spawned;
    private long startNanos;
    private long lastExitNanos;

    public InteractiveWorkload(int threads, DurationDistribution think, DurationDistribution burst,
            long wakeupsPerThread) {
        this(threads, think, burst, wakeupsPerThread, DEFAULT_WORKING_SET_KB);
    }

    /** Working set of a burst (see {@link Workload#workingSetKb()}): a request handler's hot data, not a whole L2. */
    static final long DEFAULT_WORKING_SET_KB = 64;

    public InteractiveWorkload(int threads, DurationDistribution think, DurationDistribution burst,
            long wakeupsPerThread, long workingSetKb) {
        if (threads < 1 || wakeupsPerThread < 0 || workingSetKb < 0) {
            throw new IllegalArgumentException("invalid interactive parameters");
        }
        this.threads = threads;
        this.think = think;
        this.burst = burst;
        this.wakeupsPerThread = wakeupsPerThread;
        this.workingSetKb = workingSetKb;
    }

    @Override
    public long workingSetKb() {
        return workingSetKb;
    }

    static InteractiveWorkload fromParams(Params p) {
        return new InteractiveWorkload(p.getInt("threads"), DurationDistribution.exponential(p.getDouble("thinkMeanMs")),
                DurationDistribution.lognormal(p.getDouble("burstMeanUs"), p.getDouble("burstCv")),
                p.getLong("wakeups"), p.getLong("workingSetKb"));
    }

    /** Registry entry: type, description, unit and parameters with defaults, bounds and sources. */
    public static WorkloadDescriptor descriptor() {
        return new WorkloadDescriptor(TYPE,
                "interactive: threads sleep, wake and run short bursts; reports wake-up latency percentiles",
                "us", List.of(
                        ParameterSpec.integer("threads", 1, 1, 4096, "threads", "interactive threads",
                                "workload choice"),
                        ParameterSpec.number("thinkMeanMs", 10, 0.001, 1e7, "ms",
                                "mean sleep (think) time between bursts, exponential",
                                "workload choice (Poisson arrivals)"),
                        ParameterSpec.number("burstMeanUs", 200, 0.001, 1e9, "us",
                                "mean CPU burst after each wake-up, lognormal", "workload choice, UNVERIFIED"),
                        ParameterSpec.number("burstCv", 0.5, 0, 10, "ratio",
                                "coefficient of variation of the burst length (0 = fixed)", "workload choice"),
                        ParameterSpec.integer("wakeups", 0, 0, 1_000_000_000L, "wake-ups",
                                "wake-ups per thread before it ends; 0 = endless", "workload choice"),
                        ParameterSpec.integer("workingSetKb", DEFAULT_WORKING_SET_KB, 0, 1_048_576, "KiB",
                                "What a burst keeps hot in the caches (and refills after another vCPU evicted it).",
                                "assumption, UNVERIFIED: a short request touches a few dozen pages, not a whole L2;"
                                        + " a burst cannot touch more than it has time for")),
                InteractiveWorkload::fromParams);
    }

    @Override
    public void start(WorkloadEnv env) {
        startNanos = env.now();
        for (int t = 0; t < threads; t++) {
            spawned++;
            env.spawn(new Responder(env));
        }
    }

    @Override
    public boolean isFinite() {
        return wakeupsPerThread > 0;
    }

    @Override
    public boolean isComplete() {
        return isFinite() && spawned > 0 && exited == spawned;
    }

    /** Wake-ups measured so far. */
    public long wakeups() {
        return latency.getTotalCount();
    }

    /** Latency at a percentile (0..100), in nanoseconds. */
    public long latencyNanosAt(double percentile) {
        return latency.getValueAtPercentile(percentile);
    }

    @Override
    public WorkloadReport report(long elapsedNanos) {
        boolean done = isComplete();
        Map<String, Double> details = new LinkedHashMap<>();
        details.put("wakeups", (double) latency.getTotalCount());
        details.put("p50Us", micros(latency.getValueAtPercentile(50)));
        details.put("p90Us", micros(latency.getValueAtPercentile(90)));
        details.put("p99Us", micros(latency.getValueAtPercentile(99)));
        details.put("p99.9Us", micros(latency.getValueAtPercentile(99.9)));
        details.put("maxUs", micros(latency.getMaxValue()));
        details.put("meanUs", latency.getTotalCount() == 0 ? 0.0 : latency.getMean() / 1e3);
        Double completion = done ? (lastExitNanos - startNanos) / 1e9 : null;
        return new WorkloadReport("wake-up latency p99", micros(latency.getValueAtPercentile(99)), "us", false,
                completion, details);
    }

    private static double micros(long nanos) {
        return nanos / 1e3;
    }

    /** sleep -> marker -> burst -> sleep ...; the marker's end gives the wake-up latency. */
    private final class Responder implements GuestThread {
        private final WorkloadEnv env;
        private int step;
        private long sleepEndsAt;
        private long wakeups;

        Responder(WorkloadEnv env) {
            this.env = env;
        }

        @Override
        public Phase next(long now) {
            switch (step) {
                case 0 -> {
                    if (wakeupsPerThread > 0 && wakeups >= wakeupsPerThread) {
                        exited++;
                        lastExitNanos = Math.max(lastExitNanos, now);
                        step = 3;
                        return Phase.EXIT;
                    }
                    long nanos = think.sampleNanos(env.random(), 1e6);
                    sleepEndsAt = now + nanos;
                    step = 1;
                    return new Phase.Sleep(nanos);
                }
                case 1 -> {
                    step = 2;
                    return MARKER;
                }
                case 2 -> {
                    long waited = Math.max(0, now - sleepEndsAt - MARKER_NANOS);
                    latency.recordValue(Math.min(waited, MAX_TRACKED_NANOS));
                    wakeups++;
                    step = 0;
                    long work = Math.max(1, burst.sampleNanos(env.random(), 1e3) - MARKER_NANOS);
                    return new Phase.Compute(work, false);
                }
                default -> {
                    return Phase.EXIT;
                }
            }
        }
    }
}
