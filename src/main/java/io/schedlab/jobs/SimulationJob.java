package io.schedlab.jobs;

import com.github.kagkarlsson.scheduler.task.CompletionHandler;
import com.github.kagkarlsson.scheduler.task.Execution;
import com.github.kagkarlsson.scheduler.task.ExecutionContext;
import com.github.kagkarlsson.scheduler.task.ExecutionHandler;
import com.github.kagkarlsson.scheduler.task.TaskInstance;
import io.schedlab.engine.recording.TraceSink;
import io.schedlab.engine.output.ResultDocument;
import io.schedlab.engine.run.RunCancelledException;
import io.schedlab.engine.run.RunLimitExceededException;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.Limits;
import io.schedlab.engine.spec.TraceSpec;
import io.schedlab.experiments.ExperimentLifecycle.Start;
import io.schedlab.experiments.ExperimentLifecycle.StartOutcome;
import io.schedlab.experiments.ExperimentLifecycle;
import io.schedlab.experiments.TraceFile;
import io.schedlab.jobs.metrics.JobMetrics.Outcome;
import io.schedlab.jobs.metrics.JobMetrics;
import io.schedlab.jobs.metrics.RunMeters;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The body of the "simulate-experiment" task: QUEUED/RUNNING -> RUNNING, run the engine under a
 * {@link JobRunControl}, then SUCCEEDED, FAILED (timeout, event bound, engine error, out of memory) or CANCELLED.
 * A run interrupted by this process stopping throws {@link WorkerStoppingException} so the job
 * goes back to the queue and the experiment is finished by the next process. Two commits per run:
 * RUNNING with the spec read ({@link ExperimentLifecycle#start}), and the final state with the job's
 * removal ({@link FinalWrite}); a worker counts as busy from taking the job to its last write. A job
 * whose API key is at its running quota is handed back to the queue unstarted ({@link RunningQuotaDeferral}).
 */
final class SimulationJob implements ExecutionHandler<UUID> {

    private static final Logger log = LoggerFactory.getLogger(SimulationJob.class);
    private static final String UNKNOWN_POLICY = "unknown";
    /** The completion of a job whose row was removed with its experiment's final state. */
    private static final CompletionHandler<UUID> REMOVED_WITH_FINAL_STATE = (complete, operations) -> { };

    private final ExperimentLifecycle lifecycle;
    private final SimulationRunner simulator;
    private final Supplier<Limits> limits;
    private final JobsProperties properties;
    private final JobMetrics metrics;
    private final BooleanSupplier shuttingDown;
    private final Path dataDir;
    private final FinalWrite finalWrite;
    private final RunningQuotaDeferral quota;

    SimulationJob(ExperimentLifecycle lifecycle, SimulationRunner simulator, Supplier<Limits> limits,
            JobsProperties properties, JobMetrics metrics, BooleanSupplier shuttingDown, Path dataDir,
            FinalWrite finalWrite, RunningQuotaDeferral quota) {
        this.quota = quota;
        this.lifecycle = lifecycle;
        this.simulator = simulator;
        this.limits = limits;
        this.properties = properties;
        this.metrics = metrics;
        this.shuttingDown = shuttingDown;
        this.dataDir = dataDir;
        this.finalWrite = finalWrite;
    }

    @Override
    public CompletionHandler<UUID> execute(TaskInstance<UUID> instance, ExecutionContext context) {
        UUID id = instance.getData() != null ? instance.getData() : UUID.fromString(instance.getId());
        if (shuttingDown.getAsBoolean()) {
            throw new WorkerStoppingException("process stopping before experiment " + id + " started");
        }
        metrics.workerBusy();
        Start start = null;
        try {
            Execution execution = context.getExecution();
            start = lifecycle.start(id, execution.pickedBy);
            switch (start.outcome()) {
                case GONE -> {
                    log.info("experiment {} is gone, cancelled or finished; dropping its job", id);
                    return new CompletionHandler.OnCompleteRemove<>();
                }
                case AT_RUNNING_QUOTA -> {
                    log.debug("experiment {}: API key '{}' is at its running quota; back to the queue", id,
                            start.owner());
                    return quota.handBack();
                }
                case STARTED -> // one line per engine run: what shows that a run was not repeated
                    log.info("simulating experiment {} on {}", id, execution.pickedBy);
            }
            String policy = policyOf(start.spec());
            RunMeters meters = metrics.forPolicy(policy);
            meters.queueWait(Duration.between(execution.executionTime, Instant.now()));
            run(id, execution, start.spec(), policy, meters);
            return REMOVED_WITH_FINAL_STATE;
        } finally {
            metrics.workerIdle();
            if (start != null && start.outcome() == StartOutcome.STARTED) {
                quota.runEnded(start.owner());
            }
        }
    }

    /**
     * Runs the engine at the lowest thread priority, so simulations take the CPU the API threads
     * leave (a submission or a status read is not queued behind a busy worker pool). Java priorities
     * reach Linux only with {@code -XX:ThreadPriorityPolicy=1} (lowering needs no privilege); without
     * it this is a no-op. Only the engine runs lowered: it holds no lock another thread could wait on.
     */
    private ResultDocument simulateInBackground(ExperimentSpec spec, Limits runLimits, JobRunControl control) {
        Thread self = Thread.currentThread();
        int priority = self.getPriority();
        self.setPriority(Thread.MIN_PRIORITY);
        try {
            return simulator.run(spec, runLimits, control);
        } finally {
            self.setPriority(priority);
        }
    }

    private void run(UUID id, Execution execution, ExperimentSpec spec, String policy, RunMeters meters) {
        Limits runLimits = limits.get();
        TraceFile trace = traceEnabled(spec) ? TraceFile.open(dataDir, id, traceBound(spec, runLimits)) : null;
        JobRunControl control = new JobRunControl(id, lifecycle, properties, meters, shuttingDown, System::nanoTime,
                trace == null ? TraceSink.NONE : trace);
        ResultDocument result;
        try {
            result = simulateInBackground(spec, runLimits, control);
            if (trace != null) {
                trace.commit();
            }
        } catch (RunCancelledException e) {
            ResultDocument partial = e.partialResult().orElse(null);
            publishFinal(control, partial);
            keepTrace(trace, partial);
            stopped(id, execution, policy, control, e, partial);
            return;
        } catch (RunLimitExceededException e) {
            ResultDocument partial = e.partialResult().orElse(null);
            publishFinal(control, partial);
            keepTrace(trace, partial);
            fail(id, execution, policy, control, e.getMessage(), partial);
            return;
        } catch (OutOfMemoryError e) {
            // Only this run's objects were being allocated; they are unreachable now that the engine's
            // frames have unwound, so the worker and the replica carry on and only this run fails.
            log.warn("simulation of experiment {} ran out of memory: {}", id, e.getMessage());
            fail(id, execution, policy, control, "out of memory: the run needed more heap than this worker could"
                    + " give it (" + (e.getMessage() == null ? "OutOfMemoryError" : e.getMessage()) + "); a smaller"
                    + " host, fewer VMs or a shorter trace need less", null);
            return;
        } catch (RuntimeException e) {
            if (control.stopReason() == StopReason.SHUTDOWN || shuttingDown.getAsBoolean()) {
                throw new WorkerStoppingException("process stopping while simulating experiment " + id);
            }
            log.warn("simulation of experiment {} failed", id, e);
            String kind = e instanceof UncheckedIOException ? "trace error: " : "engine error: ";
            fail(id, execution, policy, control, kind + describe(e), null);
            return;
        } finally {
            if (trace != null) {
                trace.close();
            }
        }
        // outside the try: a failed status write is an infrastructure error, retried by JobFailureHandler
        long events = result.summary() == null ? 0 : result.summary().events();
        long simulatedNanos = result.summary() == null ? 0 : result.summary().simulatedNanos();
        double simulatedSeconds = simulatedNanos / 1e9;
        control.publishFinal(events, simulatedNanos);
        finalWrite.commit(execution, () -> {
            lifecycle.markSucceeded(id, result);
            return null;
        });
        Duration wall = Duration.ofNanos(control.elapsedNanos());
        meters.speed(simulatedSeconds, wall);
        metrics.finished(policy, Outcome.SUCCEEDED, wall);
    }

    private void stopped(UUID id, Execution execution, String policy, JobRunControl control,
            RunCancelledException e, ResultDocument partial) {
        switch (control.stopReason()) {
            case TIMEOUT -> fail(id, execution, policy, control,
                    "timeout after " + describe(properties.timeout()) + " of wall-clock time (schedlab.jobs.timeout)",
                    partial);
            case SHUTDOWN -> throw new WorkerStoppingException("process stopping while simulating experiment " + id);
            case CANCEL_REQUESTED -> {
                if (!finalWrite.commit(execution, () -> lifecycle.markCancelled(id, partial))) {
                    TraceFile.delete(dataDir, id); // deleted while running: nothing may outlive it
                }
                metrics.finished(policy, Outcome.CANCELLED, Duration.ofNanos(control.elapsedNanos()));
            }
            case NONE -> fail(id, execution, policy, control, "engine stopped the run unasked: " + e.getMessage(), partial);
        }
    }

    /** FAILED, keeping the partial result (null: none). */
    private void fail(UUID id, Execution execution, String policy, JobRunControl control, String reason,
            ResultDocument partial) {
        if (!finalWrite.commit(execution, () -> lifecycle.markFailed(id, reason, partial))) {
            TraceFile.delete(dataDir, id);
        }
        metrics.finished(policy, Outcome.FAILED, Duration.ofNanos(control.elapsedNanos()));
    }

    /** The final simulated work of a stopped run, from its partial result when there is one. */
    private static void publishFinal(JobRunControl control, ResultDocument partial) {
        if (partial == null || partial.summary() == null) {
            control.publishFinal(0, 0);
        } else {
            control.publishFinal(partial.summary().events(), partial.summary().simulatedNanos());
        }
    }

    /** A stopped run's trace up to the stop goes with its partial result. */
    private static void keepTrace(TraceFile trace, ResultDocument partial) {
        if (trace != null && partial != null) {
            trace.commit();
        }
    }

    private static boolean traceEnabled(ExperimentSpec spec) {
        TraceSpec trace = spec.trace();
        return trace != null && Boolean.TRUE.equals(trace.enabled());
    }

    private static long traceBound(ExperimentSpec spec, Limits limits) {
        Long requested = spec.trace().maxEvents();
        long bound = limits.maxTraceEvents();
        return requested == null ? bound : Math.min(requested, bound);
    }

    static String policyOf(ExperimentSpec spec) {
        if (spec.scheduler() == null || spec.scheduler().policy() == null) {
            return UNKNOWN_POLICY;
        }
        return spec.scheduler().policy();
    }

    static String describe(Duration duration) {
        return duration.toString().substring(2).toLowerCase(java.util.Locale.ROOT);
    }

    private static String describe(RuntimeException e) {
        String message = e.getMessage();
        return message == null || message.isBlank() ? e.getClass().getSimpleName() : message;
    }
}
