package io.schedlab.jobs;

import com.github.kagkarlsson.scheduler.jdbc.JdbcTaskRepositoryContext;
import com.github.kagkarlsson.scheduler.jdbc.PostgreSqlJdbcCustomization;
import com.github.kagkarlsson.scheduler.task.Execution;
import java.time.Instant;
import java.util.List;

/**
 * db-scheduler's PostgreSQL dialect (single-statement {@code UPDATE ... FOR UPDATE SKIP LOCKED ...
 * RETURNING}, as {@code AutodetectJdbcCustomization} chooses it) that hands every locked execution to
 * {@link PickedAhead}, so jobs waiting for a worker keep their heartbeat.
 */
final class PickRecordingPostgreSql extends PostgreSqlJdbcCustomization {

    private final PickedAhead pickedAhead;

    PickRecordingPostgreSql(PickedAhead pickedAhead) {
        // as AutodetectJdbcCustomization: single-statement lock-and-fetch, timestamps in the JVM's zone
        super(false, false);
        this.pickedAhead = pickedAhead;
    }

    @Override
    public List<Execution> lockAndFetchSingleStatement(JdbcTaskRepositoryContext ctx, Instant now, int limit,
            boolean orderByPriority) {
        List<Execution> picked = super.lockAndFetchSingleStatement(ctx, now, limit, orderByPriority);
        pickedAhead.picked(picked);
        return picked;
    }
}
