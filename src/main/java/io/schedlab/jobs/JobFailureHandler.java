package io.schedlab.jobs;

import com.github.kagkarlsson.scheduler.task.ExecutionComplete;
import com.github.kagkarlsson.scheduler.task.ExecutionOperations;
import com.github.kagkarlsson.scheduler.task.FailureHandler;
import io.schedlab.experiments.ExperimentLifecycle;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What db-scheduler does when a job throws (simulation failures do not throw: they end as FAILED
 * experiments). A job handed back by a stopping process is due again at once; an infrastructure
 * error (e.g. the database was briefly unreachable) is retried with exponential backoff, and after
 * {@link #MAX_ATTEMPTS} the experiment is marked FAILED and the job removed, so it never loops.
 */
final class JobFailureHandler implements FailureHandler<UUID> {

    static final int MAX_ATTEMPTS = 5;
    private static final Duration FIRST_RETRY_DELAY = Duration.ofSeconds(1);
    private static final Logger log = LoggerFactory.getLogger(JobFailureHandler.class);

    private final ExperimentLifecycle lifecycle;

    JobFailureHandler(ExperimentLifecycle lifecycle) {
        this.lifecycle = lifecycle;
    }

    @Override
    public void onFailure(ExecutionComplete complete, ExecutionOperations<UUID> operations) {
        Throwable cause = complete.getCause().orElse(null);
        if (cause instanceof WorkerStoppingException) {
            operations.reschedule(complete, Instant.now());
            return;
        }
        int failures = complete.getExecution().consecutiveFailures + 1;
        String id = complete.getExecution().taskInstance.getId();
        if (failures < MAX_ATTEMPTS) {
            Duration delay = FIRST_RETRY_DELAY.multipliedBy(1L << (failures - 1));
            log.warn("job for experiment {} failed (attempt {}), retrying in {}", id, failures, delay, cause);
            operations.reschedule(complete, complete.getTimeDone().plus(delay));
            return;
        }
        log.error("job for experiment {} failed {} times; marking it FAILED", id, failures, cause);
        try {
            lifecycle.markFailed(UUID.fromString(id), "job failed " + failures + " times: "
                    + (cause == null ? "unknown error" : cause.getMessage()));
        } finally {
            operations.remove();
        }
    }
}
