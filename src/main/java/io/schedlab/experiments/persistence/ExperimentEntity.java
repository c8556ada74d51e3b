package io.schedlab.experiments.persistence;

import io.schedlab.experiments.status.ExperimentStatus;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import jakarta.persistence.Version;
import java.time.Instant;
import java.util.UUID;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

/**
 * One experiment row: the input exactly as sent and normalized, its status, and once done the full
 * result document (JSON: {@code jsonb} on PostgreSQL, text on H2) with summary columns for listing.
 * The JPQL reads map onto it; rows are written by the SQL in {@link ExperimentHotPaths}.
 */
@Entity
@Table(name = "experiments")
public class ExperimentEntity {

    @Id
    private UUID id;

    @Column(length = 200)
    private String name;

    /** Labels as compact JSON with sorted keys, e.g. {"a":"1","team":"x"}; filtered with LIKE on that form. */
    @Column(nullable = false, length = 32768) // V4 migration; fits the engine's label bound JSON-escaped
    private String labels;

    @Column(nullable = false, length = 64)
    private String policy;

    @Enumerated(EnumType.STRING)
    @JdbcTypeCode(SqlTypes.VARCHAR)
    @Column(nullable = false, length = 16)
    private ExperimentStatus status;

    @Column(nullable = false)
    private double progress;

    @Column(name = "simulated_nanos", nullable = false)
    private long simulatedNanos;

    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    @Column(name = "started_at")
    private Instant startedAt;

    @Column(name = "finished_at")
    private Instant finishedAt;

    @Column(name = "failure_reason", length = 2000)
    private String failureReason;

    @Column(name = "cancel_requested", nullable = false)
    private boolean cancelRequested;

    @Column(name = "input_raw", nullable = false, length = 1_048_576)
    private String inputRaw;

    @JdbcTypeCode(SqlTypes.JSON)
    @Column(name = "input_normalized", nullable = false)
    private String inputNormalized;

    @JdbcTypeCode(SqlTypes.JSON)
    @Column(name = "result")
    private String result;

    @Column(name = "wall_seconds")
    private Double wallSeconds;

    @Column(name = "events")
    private Long events;

    @Column(name = "context_switches")
    private Long contextSwitches;

    @Column(name = "migrations")
    private Long migrations;

    @Column(name = "jain_fairness")
    private Double jainFairness;

    @Column(name = "engine_version", nullable = false, length = 32)
    private String engineVersion;

    @Version
    @Column(nullable = false)
    private long version;

    @Column(length = 200) // V13: the submitting API key's name; NULL when the service runs without keys
    private String owner;

    @Column(name = "run_by", length = 255) // V13: the replica that last started the run
    private String runBy;

    protected ExperimentEntity() {
    }
}
