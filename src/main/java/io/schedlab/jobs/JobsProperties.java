package io.schedlab.jobs;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code schedlab.jobs.*}: the worker pool and the db-scheduler settings derived from it
 * (see {@link JobsConfiguration} for the mapping to db-scheduler's builder).
 *
 * @param workers           simulation threads per process (db-scheduler threads); default: available processors
 * @param maxQueued         jobs waiting or running above which submissions are refused
 * @param timeout           wall-clock limit of one simulation; hitting it ends the experiment FAILED
 * @param progressInterval  minimum time between two progress writes to the experiment
 * @param cancelPollInterval minimum time between two reads of the experiment's cancel flag
 * @param heartbeatInterval how often a running job's heartbeat is written
 * @param missedHeartbeats  heartbeats missed before a job counts as dead and is picked up again (>= 4)
 * @param pollingInterval   how often idle workers look for due jobs (immediate execution covers new ones)
 * @param shutdownMaxWait   how long a stopping process waits for running jobs to hand back their work
 * @param enabled           false = API-only replica: jobs are enqueued but never executed here
 * @param replicaName       this process's name in db-scheduler's picked_by and the experiment's
 *                          {@code replica}; empty = host name and port (see {@link ReplicaName})
 * @param pickAhead         jobs per worker this process locks ahead of a free worker on PostgreSQL
 *                          (lock-and-fetch), 0 to {@value #MAX_PICK_AHEAD}; 0 = a job is locked only when a
 *                          worker is free; one not started within a heartbeat interval goes back (see {@link PickedAhead})
 * @param replicaWakeUps    PostgreSQL: an enqueue NOTIFYs and every worker replica LISTENs, so all replicas start
 *                          on new jobs at once ({@link ReplicaWakeUps}); false = the others find them by polling
 *                          (e.g. behind a pooler in transaction mode, where LISTEN does not work)
 */
@ConfigurationProperties("schedlab.jobs")
public record JobsProperties(
        Integer workers,
        @DefaultValue("1000") int maxQueued,
        @DefaultValue("30m") Duration timeout,
        @DefaultValue("500ms") Duration progressInterval,
        @DefaultValue("200ms") Duration cancelPollInterval,
        @DefaultValue("1s") Duration heartbeatInterval,
        @DefaultValue("6") int missedHeartbeats,
        @DefaultValue("1s") Duration pollingInterval,
        @DefaultValue("10s") Duration shutdownMaxWait,
        @DefaultValue("true") boolean enabled,
        @DefaultValue("") String replicaName,
        @DefaultValue("1") int pickAhead,
        @DefaultValue("true") boolean replicaWakeUps) {

    /** Upper bound of {@code schedlab.jobs.pick-ahead}. */
    public static final int MAX_PICK_AHEAD = 8;

    public JobsProperties {
        if (workers == null) {
            workers = Runtime.getRuntime().availableProcessors();
        }
        requirePositive("schedlab.jobs.workers", workers);
        requirePositive("schedlab.jobs.max-queued", maxQueued);
        requirePositive("schedlab.jobs.timeout", timeout);
        requirePositive("schedlab.jobs.progress-interval", progressInterval);
        requirePositive("schedlab.jobs.cancel-poll-interval", cancelPollInterval);
        requirePositive("schedlab.jobs.heartbeat-interval", heartbeatInterval);
        requirePositive("schedlab.jobs.polling-interval", pollingInterval);
        requirePositive("schedlab.jobs.shutdown-max-wait", shutdownMaxWait);
        if (replicaName != null && replicaName.length() > ReplicaName.MAX_LENGTH) {
            throw new IllegalArgumentException("schedlab.jobs.replica-name is at most " + ReplicaName.MAX_LENGTH
                    + " characters");
        }
        if (pickAhead < 0 || pickAhead > MAX_PICK_AHEAD) {
            throw new IllegalArgumentException("schedlab.jobs.pick-ahead must be between 0 and " + MAX_PICK_AHEAD
                    + ", was " + pickAhead);
        }
        if (missedHeartbeats < 4) {
            // db-scheduler's SchedulerBuilder rejects fewer than 4 missed heartbeats
            throw new IllegalArgumentException("schedlab.jobs.missed-heartbeats must be >= 4, was " + missedHeartbeats);
        }
    }

    /** Time after which a job whose process stopped heart-beating is considered dead. */
    public Duration deadAfter() {
        return heartbeatInterval.multipliedBy(missedHeartbeats);
    }

    private static void requirePositive(String name, long value) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + " must be positive, was " + value);
        }
    }

    private static void requirePositive(String name, Duration value) {
        if (value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(name + " must be positive, was " + value);
        }
    }
}
