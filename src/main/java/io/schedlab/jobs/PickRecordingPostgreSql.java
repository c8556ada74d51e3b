package io.schedlab.jobs;

import com.github.kagkarlsson.scheduler.jdbc.JdbcTaskRepositoryContext;
import com.github.kagkarlsson.scheduler.jdbc.PostgreSqlJdbcCustomization;
import com.github.kagkarlsson.scheduler.task.Execution;
import java.time.Instant;
import java.util.List;

/**
 * db-scheduler's PostgreSQL dialect (single-statement {@code UPDATE ... FOR UPDATE SKIP LOCKED ...
 * RETURNING}, as {@code AutodetectJdbcCustomization} chooses it) that hands every locked execution to
 * {@link PickedAhead}, which hands back a job that waits too long for a worker.
 */
final class PickRecordingPostgreSql extends PostgreSqlJdbcCustomization {

    private final PickedAhead pickedAhead;

    PickRecordingPostgreSql(PickedAhead pickedAhead) {
        // as AutodetectJdbcCustomization builds it for PostgreSQL with the builder's defaults: single-statement
        // lock-and-fetch, persistTimestampInUTC off
        super(false, false);
        this.pickedAhead = pickedAhead;
    }

    @Override
    public List<Execution> lockAndFetchSingleStatement(JdbcTaskRepositoryContext ctx, Instant now, int limit,
            boolean orderByPriority) {
        List<Execution> picked = super.lockAndFetchSingleStatement(ctx, now, limit, orderByPriority);
        // executions of task names this process cannot run are un-picked by the repository, never queued
        pickedAhead.picked(picked.stream().filter(e -> !ctx.taskResolver.isUnresolved(e.taskInstance.getTaskName()))
                .toList());
        return picked;
    }
}
