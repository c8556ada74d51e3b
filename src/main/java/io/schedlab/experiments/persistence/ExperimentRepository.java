package io.schedlab.experiments.persistence;

import io.schedlab.experiments.status.ExperimentStatus;
import java.util.Optional;
import java.util.UUID;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.query.Param;

/**
 * Experiment rows: JPQL reads for the API, and the submission and job statements (inserts and
 * conditional state changes) as plain SQL in {@link ExperimentHotPaths}.
 */
public interface ExperimentRepository extends JpaRepository<ExperimentEntity, UUID>, ExperimentQueries,
        ExperimentHotPaths {

    /** The light columns of one experiment. */
    @Query("""
            select new io.schedlab.experiments.persistence.ExperimentRow(e.id, e.name, e.labels, e.policy, e.status,
              e.progress, e.simulatedNanos, e.createdAt, e.startedAt, e.finishedAt, e.failureReason,
              e.cancelRequested, e.engineVersion, e.wallSeconds, e.events, e.contextSwitches, e.migrations,
              e.jainFairness, e.owner, e.runBy)
            from ExperimentEntity e where e.id = :id""")
    Optional<ExperimentRow> findRow(@Param("id") UUID id);

    @Query("select e.status from ExperimentEntity e where e.id = :id")
    Optional<ExperimentStatus> findStatus(@Param("id") UUID id);

    @Query("select e.inputRaw from ExperimentEntity e where e.id = :id")
    Optional<String> findInputRaw(@Param("id") UUID id);

    /** Counts an owner's rows in any of these statuses (the per-key quota). */
    long countByOwnerAndStatusIn(String owner, java.util.Collection<ExperimentStatus> statuses);

    /** Counts rows per status (e.g. QUEUED). */
    long countByStatus(ExperimentStatus status);
}
