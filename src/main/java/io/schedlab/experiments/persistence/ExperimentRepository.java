package io.schedlab.experiments.persistence;

import io.schedlab.experiments.ExperimentStatus;
import java.time.Instant;
import java.util.Collection;
import java.util.Optional;
import java.util.UUID;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Modifying;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.query.Param;

/**
 * Experiment rows. State changes are conditional single-statement updates (status in the WHERE
 * clause, version bumped), so a job and a cancel request racing each other never both win.
 */
public interface ExperimentRepository extends JpaRepository<ExperimentEntity, UUID>, ExperimentQueries,
        ExperimentInserts {

    /** The light columns of one experiment. */
    @Query("""
            select new io.schedlab.experiments.persistence.ExperimentRow(e.id, e.name, e.labels, e.policy, e.status,
              e.progress, e.simulatedNanos, e.createdAt, e.startedAt, e.finishedAt, e.failureReason,
              e.cancelRequested, e.engineVersion, e.wallSeconds, e.events, e.contextSwitches, e.migrations,
              e.jainFairness)
            from ExperimentEntity e where e.id = :id""")
    Optional<ExperimentRow> findRow(@Param("id") UUID id);

    @Query("select e.status from ExperimentEntity e where e.id = :id")
    Optional<ExperimentStatus> findStatus(@Param("id") UUID id);

    @Query("select e.cancelRequested from ExperimentEntity e where e.id = :id")
    Optional<Boolean> findCancelRequested(@Param("id") UUID id);

    @Query("select e.result from ExperimentEntity e where e.id = :id")
    Optional<String> findResult(@Param("id") UUID id);

    @Query("select e.inputNormalized from ExperimentEntity e where e.id = :id")
    Optional<String> findInputNormalized(@Param("id") UUID id);

    @Query("select e.inputRaw from ExperimentEntity e where e.id = :id")
    Optional<String> findInputRaw(@Param("id") UUID id);

    /** Counts rows per status (e.g. QUEUED). */
    long countByStatus(ExperimentStatus status);

    @Modifying(clearAutomatically = true, flushAutomatically = true)
    @Query("""
            update ExperimentEntity e set e.status = :to, e.startedAt = :now, e.progress = 0, e.simulatedNanos = 0,
              e.version = e.version + 1
            where e.id = :id and e.status in :from and e.cancelRequested = false""")
    int start(@Param("id") UUID id, @Param("from") Collection<ExperimentStatus> from,
            @Param("to") ExperimentStatus to, @Param("now") Instant now);

    @Modifying(clearAutomatically = true, flushAutomatically = true)
    @Query("""
            update ExperimentEntity e set e.progress = :progress, e.simulatedNanos = :simulatedNanos,
              e.version = e.version + 1
            where e.id = :id and e.status = :status""")
    int progress(@Param("id") UUID id, @Param("status") ExperimentStatus status, @Param("progress") double progress,
            @Param("simulatedNanos") long simulatedNanos);

    @Modifying(clearAutomatically = true, flushAutomatically = true)
    @Query("""
            update ExperimentEntity e set e.status = :to, e.finishedAt = :now, e.failureReason = :reason,
              e.version = e.version + 1
            where e.id = :id and e.status in :from""")
    int finish(@Param("id") UUID id, @Param("from") Collection<ExperimentStatus> from,
            @Param("to") ExperimentStatus to, @Param("reason") String reason, @Param("now") Instant now);

    @Modifying(clearAutomatically = true, flushAutomatically = true)
    @Query("""
            update ExperimentEntity e set e.status = :to, e.finishedAt = :now, e.version = e.version + 1
            where e.id = :id and e.status in :from and e.cancelRequested = true""")
    int finishCancelRequested(@Param("id") UUID id, @Param("from") Collection<ExperimentStatus> from,
            @Param("to") ExperimentStatus to, @Param("now") Instant now);

    @Modifying(clearAutomatically = true, flushAutomatically = true)
    @Query("""
            update ExperimentEntity e set e.cancelRequested = true, e.version = e.version + 1
            where e.id = :id and e.status = :status""")
    int requestCancel(@Param("id") UUID id, @Param("status") ExperimentStatus status);

    @Modifying(clearAutomatically = true, flushAutomatically = true)
    @Query("""
            update ExperimentEntity e set e.status = :to, e.finishedAt = :now, e.progress = 1,
              e.simulatedNanos = :simulatedNanos, e.result = :result, e.wallSeconds = :wallSeconds,
              e.events = :events, e.contextSwitches = :contextSwitches, e.migrations = :migrations,
              e.jainFairness = :jainFairness, e.engineVersion = :engineVersion, e.version = e.version + 1
            where e.id = :id and e.status = :from""")
    int succeed(@Param("id") UUID id, @Param("from") ExperimentStatus from, @Param("to") ExperimentStatus to,
            @Param("now") Instant now, @Param("simulatedNanos") long simulatedNanos, @Param("result") String result,
            @Param("wallSeconds") double wallSeconds, @Param("events") long events,
            @Param("contextSwitches") long contextSwitches, @Param("migrations") long migrations,
            @Param("jainFairness") double jainFairness, @Param("engineVersion") String engineVersion);
}
