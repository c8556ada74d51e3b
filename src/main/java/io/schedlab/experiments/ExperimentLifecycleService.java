package io.schedlab.experiments;

import io.schedlab.engine.result.ResultDocument;
import io.schedlab.engine.result.ResultSummary;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.experiments.persistence.ExperimentRepository;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** {@link ExperimentLifecycle} over the experiments table: each transition one conditional UPDATE in its own transaction. */
@Service
public class ExperimentLifecycleService implements ExperimentLifecycle {

    private static final List<ExperimentStatus> ACTIVE = List.of(ExperimentStatus.QUEUED, ExperimentStatus.RUNNING);
    private static final int MAX_REASON_LENGTH = 2000;

    private final ExperimentRepository repository;
    private final ExperimentSpecReader reader = new ExperimentSpecReader();

    public ExperimentLifecycleService(ExperimentRepository repository) {
        this.repository = repository;
    }

    @Override
    @Transactional(readOnly = true)
    public Optional<ExperimentSpec> normalizedSpec(UUID id) {
        return repository.findInputNormalized(id).map(json -> reader.readStored(json, ExperimentSpec.class));
    }

    @Override
    @Transactional
    public boolean markRunning(UUID id) {
        return markRunning(id, null);
    }

    @Override
    @Transactional
    public boolean markRunning(UUID id, String replica) {
        Instant now = Instant.now();
        String runner = replica == null || replica.length() <= 255 ? replica : replica.substring(0, 255);
        if (repository.start(id, ACTIVE, ExperimentStatus.RUNNING, now, runner) > 0) {
            return true;
        }
        // cancel requested while RUNNING before a crash: the re-run ends here as CANCELLED
        repository.finishCancelRequested(id, ACTIVE, ExperimentStatus.CANCELLED, now);
        return false;
    }

    @Override
    @Transactional
    public Optional<ExperimentSpec> start(UUID id, String replica) {
        // RUNNING is transient: undone by a database crash, the experiment is QUEUED again with its job
        // still taken, and the job is revived and run as after a replica's death; one disk flush less per run
        repository.commitWithoutFlushWait();
        if (!markRunning(id, replica)) {
            return Optional.empty();
        }
        // read after the conditional UPDATE, in its transaction: a spec that does not parse rolls RUNNING back
        return normalizedSpec(id);
    }

    @Override
    @Transactional
    public void updateProgress(UUID id, double fraction, long simulatedNanos) {
        repository.commitWithoutFlushWait(); // progress lost in a database crash is written again by the re-run
        double clamped = Double.isNaN(fraction) ? 0 : Math.max(0, Math.min(1, fraction));
        repository.progress(id, ExperimentStatus.RUNNING, clamped, Math.max(0, simulatedNanos));
    }

    @Override
    @Transactional(readOnly = true)
    public boolean cancelRequested(UUID id) {
        return repository.findCancelRequested(id).orElse(true);
    }

    @Override
    @Transactional
    public void markSucceeded(UUID id, ResultDocument result) {
        ResultSummary s = result.summary();
        repository.succeed(id, ExperimentStatus.RUNNING, ExperimentStatus.SUCCEEDED, Instant.now(),
                s.simulatedNanos(), reader.write(result), s.wallNanos() / 1e9, s.events(),
                s.contextSwitches(), s.migrations(), s.jainIndex(),
                result.engineVersion() == null ? io.schedlab.engine.Engine.VERSION : result.engineVersion());
    }

    @Override
    @Transactional
    public void markFailed(UUID id, String reason) {
        markFailed(id, reason, null);
    }

    @Override
    @Transactional
    public void markCancelled(UUID id) {
        markCancelled(id, null);
    }

    @Override
    @Transactional
    public boolean markFailed(UUID id, String reason, ResultDocument partial) {
        String r = reason == null || reason.isBlank() ? "unknown failure" : reason;
        if (r.length() > MAX_REASON_LENGTH) {
            r = r.substring(0, MAX_REASON_LENGTH - 3) + "...";
        }
        return finish(id, ExperimentStatus.FAILED, r, partial);
    }

    @Override
    @Transactional
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
