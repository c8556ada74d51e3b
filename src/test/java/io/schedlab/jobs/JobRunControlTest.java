package io.schedlab.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.schedlab.engine.recording.TraceSink;
import io.schedlab.engine.output.ResultDocument;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.experiments.ExperimentLifecycle;
import io.schedlab.jobs.metrics.JobMetrics;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Throttling, cancel polling, timeout and shutdown of a job's run control, on a virtual clock. */
class JobRunControlTest {

    private static final long MS = 1_000_000L;

    private final AtomicLong clock = new AtomicLong(1_000 * MS);
    private final CountingLifecycle lifecycle = new CountingLifecycle();
    private final AtomicBoolean stopping = new AtomicBoolean();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final JobMetrics metrics = new JobMetrics(registry, () -> 0, () -> 1);

    private JobRunControl control(Duration timeout) {
        JobsProperties properties = new JobsProperties(1, 1000, timeout, Duration.ofMillis(500),
                Duration.ofMillis(200), Duration.ofSeconds(5), 6, Duration.ofSeconds(1), Duration.ofSeconds(10), true, "", 1, true);
        return new JobRunControl(UUID.randomUUID(), lifecycle, properties, metrics.forPolicy("credit"),
                stopping::get, clock::get, TraceSink.NONE);
    }

    @Test
    void progressIsWrittenOncePerIntervalHoweverOftenTheEngineReports() {
        JobRunControl control = control(Duration.ofMinutes(30));
        for (int ms = 1; ms <= 2_000; ms++) {
            clock.addAndGet(MS);
            control.progress(ms / 2_000.0, ms * 1_000L, ms * 100L);
        }
        assertThat(lifecycle.progressWrites).isEqualTo(4);
        assertThat(lifecycle.lastFraction).isEqualTo(1.0);
        assertThat(registry.get("schedlab.simulated.events").counter().count()).isEqualTo(200_000);
    }

    @Test
    void progressFractionIsClampedToZeroOne() {
        JobRunControl control = control(Duration.ofMinutes(30));
        clock.addAndGet(600 * MS);
        control.progress(1.7, 1, 1);
        assertThat(lifecycle.lastFraction).isEqualTo(1.0);
        clock.addAndGet(600 * MS);
        control.progress(Double.NaN, 2, 2);
        assertThat(lifecycle.lastFraction).isEqualTo(0.0);
    }

    @Test
    void cancelFlagIsReadAtMostEvery200msAndSeenWithin200ms() {
        JobRunControl control = control(Duration.ofMinutes(30));
        for (int ms = 1; ms <= 1_000; ms++) {
            clock.addAndGet(MS);
            assertThat(control.cancelRequested()).isFalse();
        }
        assertThat(lifecycle.cancelReads).isEqualTo(5);
        lifecycle.cancel = true;
        int waitedMs = 0;
        while (!control.cancelRequested()) {
            clock.addAndGet(MS);
            waitedMs++;
        }
        assertThat(waitedMs).isLessThanOrEqualTo(200);
        assertThat(control.stopReason()).isEqualTo(StopReason.CANCEL_REQUESTED);
    }

    @Test
    void wallClockTimeoutStopsTheRun() {
        JobRunControl control = control(Duration.ofSeconds(3));
        clock.addAndGet(2_999 * MS);
        assertThat(control.cancelRequested()).isFalse();
        clock.addAndGet(MS);
        assertThat(control.cancelRequested()).isTrue();
        assertThat(control.stopReason()).isEqualTo(StopReason.TIMEOUT);
    }

    @Test
    void processShutdownStopsTheRunAtTheNextPollWithoutADatabaseRead() {
        JobRunControl control = control(Duration.ofMinutes(30));
        stopping.set(true);
        assertThat(control.cancelRequested()).isTrue();
        assertThat(control.stopReason()).isEqualTo(StopReason.SHUTDOWN);
        assertThat(lifecycle.cancelReads).isZero();
    }

    @Test
    void aFailingProgressWriteOrCancelReadDoesNotStopTheRunAndTheDatabaseIsLeftAloneForAWhile() {
        lifecycle.failing = true;
        JobRunControl control = control(Duration.ofMinutes(30));
        for (int ms = 1; ms <= 1_000; ms++) {
            clock.addAndGet(MS);
            control.progress(ms / 1_000.0, ms, ms);
            assertThat(control.cancelRequested()).isFalse();
        }
        // the cancel read at 200 ms failed: nothing more until 200 ms + AFTER_FAILURE
        assertThat(lifecycle.cancelReads).isEqualTo(1);
        assertThat(lifecycle.progressWrites).isZero();
        long quietMs = JobRunControl.AFTER_FAILURE.toMillis();
        for (int ms = 1_001; ms < 200 + quietMs; ms++) {
            clock.addAndGet(MS);
            control.progress(0.5, ms, ms);
            assertThat(control.cancelRequested()).isFalse();
        }
        assertThat(lifecycle.cancelReads).isEqualTo(1);
        assertThat(lifecycle.progressWrites).isZero();
        lifecycle.failing = false;
        lifecycle.cancel = true;
        clock.addAndGet(MS);
        control.progress(0.6, 1, 1);
        assertThat(lifecycle.progressWrites).isEqualTo(1);
        assertThat(control.cancelRequested()).isTrue();
        assertThat(lifecycle.cancelReads).isEqualTo(2);
    }

    @Test
    void timeoutDescriptionIsHumanReadable() {
        assertThat(SimulationJob.describe(Duration.ofMinutes(30))).isEqualTo("30m");
        assertThat(SimulationJob.describe(Duration.ofMillis(1500))).isEqualTo("1.5s");
    }

    /** Counts the calls a run control makes to the experiment store. */
    private static final class CountingLifecycle implements ExperimentLifecycle {
        int progressWrites;
        int cancelReads;
        double lastFraction = -1;
        volatile boolean cancel;
        volatile boolean failing;

        @Override
        public Optional<ExperimentSpec> normalizedSpec(UUID id) {
            return Optional.empty();
        }

        @Override
        public boolean markRunning(UUID id) {
            return true;
        }

        @Override
        public void updateProgress(UUID id, double fraction, long simulatedNanos) {
            progressWrites++;
            lastFraction = fraction;
            if (failing) {
                throw new IllegalStateException("database unreachable");
            }
        }

        @Override
        public boolean cancelRequested(UUID id) {
            cancelReads++;
            if (failing) {
                throw new IllegalStateException("database unreachable");
            }
            return cancel;
        }

        @Override
        public void markSucceeded(UUID id, ResultDocument result) {
        }

        @Override
        public void markFailed(UUID id, String reason) {
        }

        @Override
        public void markCancelled(UUID id) {
        }
    }
}
