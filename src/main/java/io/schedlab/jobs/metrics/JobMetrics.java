package io.schedlab.jobs.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Queue and run meters, names exactly as in coord/SERVICE-CONTRACTS.md "Metrics". Tags are only
 * {@code policy} (a registry name, so bounded) and {@code outcome}; never an experiment id.
 */
public final class JobMetrics {

    public static final String FINISHED = "schedlab.experiments.finished";
    public static final String QUEUE_DEPTH = "schedlab.queue.depth";
    public static final String QUEUE_WAIT = "schedlab.queue.wait";
    public static final String RUN = "schedlab.run";
    public static final String SIMULATED_EVENTS = "schedlab.simulated.events";
    public static final String SIMULATED_TIME = "schedlab.simulated.time";
    public static final String SIMULATION_SPEED = "schedlab.simulation.speed";
    public static final String WORKERS_BUSY = "schedlab.workers.busy";
    public static final String WORKERS_SIZE = "schedlab.workers.size";
    public static final String WORKERS_BUSY_TIME = "schedlab.workers.busy.time";

    private final MeterRegistry registry;
    private final BusyTime busyTime = new BusyTime(System::nanoTime);
    private final Map<String, RunMeters> byPolicy = new ConcurrentHashMap<>();

    /**
     * @param queuedJobs  jobs waiting for a worker (the gauge caches it, see {@link CachedLongSupplier})
     * @param workerCount workers in this process (0 on an API-only replica)
     */
    public JobMetrics(MeterRegistry registry, LongSupplier queuedJobs, LongSupplier workerCount) {
        this.registry = registry;
        CachedLongSupplier cachedDepth = new CachedLongSupplier(queuedJobs, Duration.ofSeconds(1), System::nanoTime);
        Gauge.builder(QUEUE_DEPTH, cachedDepth, CachedLongSupplier::getAsDouble)
                .description("Experiments queued and not yet started (from the database, cached ~1 s)")
                .strongReference(true)
                .register(registry);
        Gauge.builder(WORKERS_BUSY, busyTime, BusyTime::holding)
                .description("Workers holding a job in this process (from taking it to its final write)")
                .register(registry);
        FunctionCounter.builder(WORKERS_BUSY_TIME, busyTime, BusyTime::seconds)
                .description("Worker time spent holding a job, summed over this process's workers (rate() / size = use)")
                .baseUnit("seconds")
                .register(registry);
        Gauge.builder(WORKERS_SIZE, workerCount, s -> s.getAsLong())
                .description("Workers in this process")
                .strongReference(true)
                .register(registry);
    }

    /**
     * Registers every policy's finished counters (each outcome) and run meters at zero, so
     * dashboards' {@code rate()} and {@code increase()} see the first failure (a counter born at 1
     * has no earlier sample to rise from) and failure panels show 0 instead of "No data".
     */
    public void preRegister(Iterable<String> policies) {
        for (String policy : policies) {
            forPolicy(policy);
            for (Outcome outcome : Outcome.values()) {
                finishedCounter(policy, outcome);
            }
        }
    }

    /** The per-policy meters, created on first use. */
    public RunMeters forPolicy(String policy) {
        return byPolicy.computeIfAbsent(policy, this::createMeters);
    }

    /** A worker took a job (busy until its final write). */
    public void workerBusy() {
        busyTime.began();
    }

    /** A worker finished a job. */
    public void workerIdle() {
        busyTime.ended();
    }

    /** A run ended with {@code outcome} (succeeded, failed, cancelled) after {@code wall}. */
    public void finished(String policy, Outcome outcome, Duration wall) {
        finishedCounter(policy, outcome).increment();
        Timer.builder(RUN)
                .description("Wall time of a simulation run")
                .tag("policy", policy).tag("outcome", outcome.tag())
                .publishPercentileHistogram()
                .register(registry).record(wall);
    }

    /**
     * An experiment cancelled while still QUEUED (the experiments feature ends it without a run):
     * counts it as finished/cancelled without recording a run time.
     */
    public void cancelledBeforeStart(String policy) {
        finishedCounter(policy, Outcome.CANCELLED).increment();
    }

    private Counter finishedCounter(String policy, Outcome outcome) {
        return Counter.builder(FINISHED)
                .description("Experiments finished, by outcome")
                .tag("policy", policy).tag("outcome", outcome.tag())
                .register(registry);
    }

    private RunMeters createMeters(String policy) {
        Timer queueWait = Timer.builder(QUEUE_WAIT)
                .description("Time from enqueue to start of a simulation")
                .tag("policy", policy)
                .publishPercentileHistogram()
                .register(registry);
        Counter events = Counter.builder(SIMULATED_EVENTS)
                .description("Simulated events processed")
                .tag("policy", policy)
                .register(registry);
        Counter time = Counter.builder(SIMULATED_TIME)
                .description("Simulated time processed")
                .baseUnit("seconds")
                .tag("policy", policy)
                .register(registry);
        DistributionSummary speed = DistributionSummary.builder(SIMULATION_SPEED)
                .description("Simulated seconds per wall-clock second of a completed run")
                .tag("policy", policy)
                .publishPercentileHistogram()
                .register(registry);
        return new RunMeters(queueWait, events, time, speed);
    }

    /** How a run ended, as the {@code outcome} tag. */
    public enum Outcome {
        SUCCEEDED, FAILED, CANCELLED;

        String tag() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }
}
