package io.schedlab.jobs;

import com.github.kagkarlsson.scheduler.task.CompletionHandler;
import com.github.kagkarlsson.scheduler.task.DeadExecutionHandler;
import com.github.kagkarlsson.scheduler.task.ExecutionContext;
import com.github.kagkarlsson.scheduler.task.FailureHandler;
import com.github.kagkarlsson.scheduler.task.TaskInstance;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;
import java.util.UUID;

/**
 * The "simulate-experiment" one-time task. Unlike {@code Tasks.oneTime(...)}, whose completion
 * always removes the row in a transaction of its own, the completion comes from
 * {@link SimulationJob}: nothing to do when the job's row went with the experiment's final state
 * ({@link FinalWrite}), db-scheduler's removal when a job is dropped without one.
 */
final class SimulationTask extends OneTimeTask<UUID> {

    private final SimulationJob job;

    /** {@code onDead}: what becomes of a job whose process died (its revival; start accepts RUNNING -> RUNNING). */
    SimulationTask(String name, SimulationJob job, FailureHandler<UUID> onFailure, DeadExecutionHandler<UUID> onDead) {
        super(name, UUID.class, onFailure, onDead);
        this.job = job;
    }

    @Override
    public CompletionHandler<UUID> execute(TaskInstance<UUID> instance, ExecutionContext context) {
        return job.execute(instance, context);
    }

    /** Never called: {@link #execute} is overridden (db-scheduler calls only that). */
    @Override
    public void executeOnce(TaskInstance<UUID> instance, ExecutionContext context) {
        throw new UnsupportedOperationException("SimulationTask runs through execute()");
    }
}
