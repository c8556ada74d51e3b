package io.schedlab.experiments;

import io.schedlab.engine.output.ResultDocument;
import io.schedlab.engine.output.ResultSummary;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.experiments.status.ExperimentStatus;
import io.schedlab.experiments.persistence.ExperimentHotPaths;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.stereotype.Service;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * {@link ExperimentLifecycle} over the experiments table: each transition one conditional UPDATE;
 * a start under the running quota also locks the owner's quota row. Plain JDBC in JDBC
 * transactions ({@link JdbcTransactionManager}), not the JPA transaction manager: the job path
 * touches no entity, and a Hibernate session per transaction (open, begin, flush check, close)
 * was a quarter of a worker's CPU per small sweep child (JFR, docs/benchmarks.md "Sweeps"). A
 * single statement runs in the caller's transaction when there is one (the final write,
 * {@code FinalWrite}; a cancel's discard), else on its own (auto-commit).
 */
@Service
public class ExperimentLifecycleService implements ExperimentLifecycle {

    private static final List<ExperimentStatus> ACTIVE = List.of(ExperimentStatus.QUEUED, ExperimentStatus.RUNNING);
    private static final int MAX_REASON_LENGTH = 2000;

    private final ExperimentHotPaths repository;
    private final ExperimentSpecReader reader = new ExperimentSpecReader();
    private final TransactionTemplate tx;
    private final TransactionTemplate ownTx;
    private final QuotaProperties quotas;

    public ExperimentLifecycleService(DataSource dataSource, ObjectProvider<QuotaProperties> quotas) {
        this.repository = ExperimentHotPaths.jdbc(dataSource);
        JdbcTransactionManager transactions = new JdbcTransactionManager(dataSource);
        this.tx = new TransactionTemplate(transactions);
        this.ownTx = new TransactionTemplate(transactions);
        ownTx.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
        this.quotas = quotas.getIfAvailable(() -> QuotaProperties.NONE);
    }

    @Override
    public Optional<ExperimentSpec> normalizedSpec(UUID id) {
        return repository.findInputNormalized(id).map(json -> reader.readStored(json, ExperimentSpec.class));
    }

    @Override
    public Start start(UUID id, String replica) {
        long max = quotas.maxRunningPerKey();
        String owner = max > 0 ? repository.findOwner(id).orElse(null) : null;
        return tx.execute(s -> {
            // RUNNING is transient: undone by a database crash, the experiment is QUEUED again with its job
            // still taken, and the job is revived and run as after a replica's death; one disk flush less per run
            repository.commitWithoutFlushWait();
            if (owner != null) {
                lockOwner(owner);
                // the owner's row lock is held until commit: another start of this owner counts after this one
                if (repository.countRunning(owner, id) >= max) {
                    return new Start(StartOutcome.AT_RUNNING_QUOTA, owner, null);
                }
            }
            if (!markRunning(id, replica)) {
                return Start.gone(owner);
            }
            // read after the conditional UPDATE, in its transaction: a spec that does not parse rolls RUNNING back
            return normalizedSpec(id).map(spec -> new Start(StartOutcome.STARTED, owner, spec))
                    .orElseGet(() -> Start.gone(owner));
        });
    }

    /** Locks the owner's quota row, adding it first (in a transaction of its own) when it is the owner's first start. */
    private void lockOwner(String owner) {
        if (repository.lockQuotaOwner(owner)) {
            return;
        }
        try {
            ownTx.executeWithoutResult(s -> repository.insertQuotaOwner(owner));
        } catch (DataIntegrityViolationException addedMeanwhile) {
            // another worker added it: lock that one
        }
        if (!repository.lockQuotaOwner(owner)) {
            throw new IllegalStateException("quota row of '" + owner + "' missing after insert");
        }
    }

    @Override
    public List<UUID> oldestQueued(String owner, int limit) {
        return repository.oldestQueued(owner, limit);
    }

    @Override
    public boolean markRunning(UUID id) {
        return markRunning(id, null);
    }

    @Override
    public boolean markRunning(UUID id, String replica) {
        Instant now = Instant.now();
        String runner = replica == null || replica.length() <= 255 ? replica : replica.substring(0, 255);
        return Boolean.TRUE.equals(tx.execute(s -> {
            if (repository.start(id, ACTIVE, ExperimentStatus.RUNNING, now, runner) > 0) {
                return true;
            }
            // cancel requested while RUNNING before a crash: the re-run ends here as CANCELLED
            repository.finishCancelRequested(id, ACTIVE, ExperimentStatus.CANCELLED, now);
            return false;
        }));
    }

    @Override
    public void updateProgress(UUID id, double fraction, long simulatedNanos) {
        double clamped = Double.isNaN(fraction) ? 0 : Math.max(0, Math.min(1, fraction));
        tx.executeWithoutResult(s -> {
            repository.commitWithoutFlushWait(); // progress lost in a database crash is written again by the re-run
            repository.progress(id, ExperimentStatus.RUNNING, clamped, Math.max(0, simulatedNanos));
        });
    }

    @Override
    public boolean cancelRequested(UUID id) {
        return repository.findCancelRequested(id).orElse(true);
    }

    @Override
    public void markSucceeded(UUID id, ResultDocument result) {
        ResultSummary s = result.summary();
        repository.succeed(id, ExperimentStatus.RUNNING, ExperimentStatus.SUCCEEDED, Instant.now(),
                s.simulatedNanos(), reader.write(result), s.wallNanos() / 1e9, s.events(),
                s.contextSwitches(), s.migrations(), s.jainIndex(),
                result.engineVersion() == null ? io.schedlab.engine.Engine.VERSION : result.engineVersion());
    }

    @Override
    public void markFailed(UUID id, String reason) {
        markFailed(id, reason, null);
    }

    @Override
    public void markCancelled(UUID id) {
        markCancelled(id, null);
    }

    @Override
    public boolean markFailed(UUID id, String reason, ResultDocument partial) {
        String r = reason == null || reason.isBlank() ? "unknown failure" : reason;
        if (r.length() > MAX_REASON_LENGTH) {
            r = r.substring(0, MAX_REASON_LENGTH - 3) + "...";
        }
        return finish(id, ExperimentStatus.FAILED, r, partial);
    }

    @Override
    public boolean markCancelled(UUID id, ResultDocument partial) {
        return finish(id, ExperimentStatus.CANCELLED, null, partial);
    }

    private boolean finish(UUID id, ExperimentStatus to, String reason, ResultDocument partial) {
        if (partial == null || partial.summary() == null) {
            return repository.finish(id, ACTIVE, to, reason, Instant.now()) > 0;
        }
        ResultSummary s = partial.summary();
        return repository.finishWithResult(id, ACTIVE, to, reason, Instant.now(), s.simulatedNanos(),
                reader.write(partial), s.wallNanos() / 1e9, s.events(), s.contextSwitches(), s.migrations(),
                s.jainIndex()) > 0;
    }
}
