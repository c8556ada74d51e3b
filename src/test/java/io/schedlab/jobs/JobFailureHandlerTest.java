package io.schedlab.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;

import com.github.kagkarlsson.scheduler.task.Execution;
import com.github.kagkarlsson.scheduler.task.ExecutionComplete;
import com.github.kagkarlsson.scheduler.task.ExecutionOperations;
import com.github.kagkarlsson.scheduler.task.TaskInstance;
import io.schedlab.experiments.ExperimentLifecycle;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;

/** A job handed back on shutdown is due at once; infrastructure errors back off, then end FAILED. */
class JobFailureHandlerTest {

    private final ExperimentLifecycle lifecycle = mock(ExperimentLifecycle.class);
    private final JobFailureHandler handler = new JobFailureHandler(lifecycle);
    @SuppressWarnings("unchecked")
    private final ExecutionOperations<UUID> operations = mock(ExecutionOperations.class);
    private final UUID id = UUID.randomUUID();
    private final Instant done = Instant.parse("2026-11-30T07:00:00Z");

    private ExecutionComplete failure(int previousFailures, Throwable cause) {
        Execution execution = new Execution(done.minusSeconds(5), new TaskInstance<>(JobsConfiguration.TASK_NAME,
                id.toString(), id), true, "host", null, null, previousFailures, done, 1);
        return ExecutionComplete.failure(execution, done.minusSeconds(1), done, cause);
    }

    @Test
    void aJobHandedBackByAStoppingProcessIsDueImmediately() {
        Instant before = Instant.now();
        ExecutionComplete complete = failure(0, new WorkerStoppingException("stopping"));
        handler.onFailure(complete, operations);
        ArgumentCaptor<Instant> when = ArgumentCaptor.forClass(Instant.class);
        verify(operations).reschedule(eq(complete), when.capture());
        assertThat(when.getValue()).isBetween(before, Instant.now());
        verify(lifecycle, never()).markFailed(any(), any());
    }

    @Test
    void infrastructureErrorsAreRetriedWithExponentialBackoff() {
        ExecutionComplete first = failure(0, new IllegalStateException("db down"));
        handler.onFailure(first, operations);
        verify(operations).reschedule(first, done.plus(Duration.ofSeconds(1)));
        ExecutionComplete third = failure(2, new IllegalStateException("db down"));
        handler.onFailure(third, operations);
        verify(operations).reschedule(third, done.plus(Duration.ofSeconds(4)));
        verify(lifecycle, never()).markFailed(any(), any());
    }

    @Test
    void afterFiveAttemptsTheExperimentIsFailedAndTheJobRemoved() {
        handler.onFailure(failure(JobFailureHandler.MAX_ATTEMPTS - 1, new IllegalStateException("db down")),
                operations);
        verify(lifecycle).markFailed(id, "job failed 5 times: db down");
        verify(operations).remove();
        verify(operations, never()).reschedule(any(), any());
    }
}
