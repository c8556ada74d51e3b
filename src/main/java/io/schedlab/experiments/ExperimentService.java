package io.schedlab.experiments;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.schedlab.engine.Engine;
import io.schedlab.engine.Validation;
import io.schedlab.engine.registry.PolicyDescriptor;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.Violation;
import io.schedlab.experiments.persistence.ExperimentFilter;
import io.schedlab.experiments.persistence.ExperimentRepository;
import io.schedlab.experiments.persistence.ExperimentRow;
import io.schedlab.experiments.persistence.LabelsJson;
import io.schedlab.experiments.persistence.NewExperiment;
import io.schedlab.jobs.JobQueue;
import io.schedlab.jobs.TraceFile;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Service;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The experiments use cases: validate, submit (persist + enqueue in one transaction), read, list
 * and cancel. Knows nothing of HTTP; failures are domain exceptions.
 */
@Service
public class ExperimentService {

    /** Largest page a list request may ask for. */
    public static final int MAX_PAGE_SIZE = 100;
    private static final Duration QUEUE_FULL_RETRY_AFTER = Duration.ofSeconds(5);

    private final Engine engine;
    private final LimitsProperties limits;
    private final ExperimentRepository repository;
    private final JobQueue jobQueue;
    private final TransactionTemplate tx;
    private final SubmissionTransaction submissionTransaction;
    private final MeterRegistry meters;
    private final long maxQueued;
    private final ExperimentSpecReader reader = new ExperimentSpecReader();
    private final Map<String, Counter> submitted = new ConcurrentHashMap<>();
    private final QueueDepthEstimate queueDepth;
    private final Path dataDir;

    public ExperimentService(Engine engine, LimitsProperties limits, ExperimentRepository repository, JobQueue jobQueue,
            PlatformTransactionManager transactions, SubmissionTransaction submissionTransaction, MeterRegistry meters, @Value("${schedlab.jobs.max-queued:1000}") long maxQueued,
            @Value("${schedlab.limits.queue-depth-cache:1s}") Duration depthCache,
            @Value("${schedlab.data-dir:./data}") String dataDir) {
        this.dataDir = Path.of(dataDir);
        this.engine = engine;
        this.limits = limits;
        this.repository = repository;
        this.jobQueue = jobQueue;
        this.tx = new TransactionTemplate(transactions);
        this.submissionTransaction = submissionTransaction;
        this.meters = meters;
        this.maxQueued = maxQueued;
        this.queueDepth = new QueueDepthEstimate(jobQueue::depth, depthCache.toNanos(),
                ExperimentService::refreshInBackground);
        for (PolicyDescriptor policy : engine.registry().policies()) {
            submittedCounter(policy.name());
        }
    }

    /** Full validation of a body; nothing is stored. */
    public ValidatedExperiment validate(byte[] body) {
        String raw = reader.decode(body);
        ExperimentSpec spec = reader.read(raw);
        Validation validation = engine.validate(spec, limits.toEngineLimits());
        List<Violation> violations = SubmissionRules.merge(SubmissionRules.check(spec), validation.violations());
        if (!violations.isEmpty()) {
            throw new InvalidExperimentException(violations);
        }
        return new ValidatedExperiment(raw, validation.normalized(), reader.write(validation.normalized()));
    }

    /** Validates, stores as QUEUED and enqueues the simulation job in the same transaction. */
    public Experiment submit(byte[] body) {
        ValidatedExperiment valid = validate(body);
        long depth = queueDepth.current();
        if (depth >= maxQueued) {
            throw new QueueFullException(depth, maxQueued, QUEUE_FULL_RETRY_AFTER);
        }
        ExperimentSpec spec = valid.normalized();
        String policy = spec.scheduler().policy();
        NewExperiment experiment = new NewExperiment(UUID.randomUUID(), spec.name(),
                LabelsJson.write(spec.labels() == null ? Map.of() : spec.labels()), policy, valid.raw(),
                valid.normalizedJson(), Engine.VERSION, Instant.now().truncatedTo(ChronoUnit.MICROS));
        submissionTransaction.run(() -> {
            repository.insertQueued(experiment);
            jobQueue.enqueue(experiment.id());
        });
        queueDepth.accepted();
        submittedCounter(policy).increment();
        return toExperiment(experiment.toRow());
    }

    /** Runs a queue-depth refresh on a short-lived daemon thread (at most one at a time, once per interval). */
    private static void refreshInBackground(Runnable refresh) {
        Thread t = new Thread(refresh, "queue-depth-refresh");
        t.setDaemon(true);
        t.start();
    }

    /** One experiment's status view. */
    public Experiment get(UUID id) {
        return repository.findRow(id).map(this::toExperiment).orElseThrow(() -> new ExperimentNotFoundException(id));
    }

    /** The stored input: exactly as sent, and normalized. */
    public StoredInput input(UUID id) {
        String raw = repository.findInputRaw(id).orElseThrow(() -> new ExperimentNotFoundException(id));
        String normalized = repository.findInputNormalized(id).orElseThrow(() -> new ExperimentNotFoundException(id));
        return new StoredInput(raw, normalized);
    }

    /** The stored input of an experiment: the text as sent and the normalized spec as JSON. */
    public record StoredInput(String raw, String normalizedJson) {
    }

    /** A page of experiments, newest first. */
    public ExperimentPage list(ExperimentFilter filter) {
        if (filter.page() < 0 || filter.size() < 1 || filter.size() > MAX_PAGE_SIZE) {
            throw new IllegalArgumentException("page must be >= 0 and size 1.." + MAX_PAGE_SIZE);
        }
        List<Experiment> items = repository.findRows(filter).stream().map(this::toExperiment).toList();
        long total = repository.countRows(filter);
        int pages = (int) Math.min(Integer.MAX_VALUE, (total + filter.size() - 1) / filter.size());
        return new ExperimentPage(items, filter.page(), filter.size(), total, pages);
    }

    /**
     * Cancels: a QUEUED experiment becomes CANCELLED at once; a RUNNING one is flagged and its job
     * stops the engine (it then becomes CANCELLED). A finished experiment is a conflict.
     */
    public Experiment cancel(UUID id) {
        for (int attempt = 0; attempt < 5; attempt++) {
            Integer changed = tx.execute(s -> {
                int n = repository.finish(id, List.of(ExperimentStatus.QUEUED), ExperimentStatus.CANCELLED, null,
                        Instant.now());
                if (n > 0) {
                    jobQueue.discard(id); // same transaction: the job goes with the QUEUED state
                }
                return n;
            });
            if (changed != null && changed > 0) {
                return get(id);
            }
            changed = tx.execute(s -> repository.requestCancel(id, ExperimentStatus.RUNNING));
            if (changed != null && changed > 0) {
                return get(id);
            }
            ExperimentStatus status = repository.findStatus(id).orElseThrow(() -> new ExperimentNotFoundException(id));
            if (status.finished()) {
                throw new ExperimentConflictException(
                        "experiment " + id + " is already " + status + "; only QUEUED or RUNNING experiments can be cancelled");
            }
        }
        throw new ExperimentConflictException("experiment " + id + " changed state while cancelling; try again");
    }

    /**
     * The result document as stored JSON: complete once SUCCEEDED, partial ({@code "partial": true})
     * for a run that was CANCELLED or FAILED while running.
     */
    public String resultJson(UUID id) {
        ExperimentRow row = repository.findRow(id).orElseThrow(() -> new ExperimentNotFoundException(id));
        requireResult(row);
        return repository.findResult(id).orElseThrow(() -> new ExperimentNotFoundException(id));
    }

    /**
     * Throws {@link ExperimentNotFoundException}, {@link ResultsNotReadyException} (QUEUED or
     * RUNNING) or {@link NoResultsException} (finished without ever running) unless it has a result.
     */
    public Experiment requireResult(UUID id) {
        ExperimentRow row = repository.findRow(id).orElseThrow(() -> new ExperimentNotFoundException(id));
        requireResult(row);
        return toExperiment(row);
    }

    private static void requireResult(ExperimentRow row) {
        switch (row.status()) {
            case QUEUED, RUNNING -> throw new ResultsNotReadyException("experiment " + row.id() + " is "
                    + row.status() + "; its results are available once it has finished", row.status());
            case SUCCEEDED -> {
            }
            case FAILED, CANCELLED -> {
                if (row.events() == null) {
                    throw new NoResultsException("experiment " + row.id() + " " + row.status()
                            + (row.failureReason() == null ? "" : " (" + row.failureReason() + ")")
                            + " before it ran; it has no results");
                }
            }
        }
    }

    /**
     * Deletes an experiment with its results and trace, whatever its status: a QUEUED one's job goes
     * with it; a RUNNING one's job finds it gone at its next cancel poll and stops.
     */
    public void delete(UUID id) {
        Integer deleted = tx.execute(s -> {
            jobQueue.discard(id);
            return repository.delete(id);
        });
        if (deleted == null || deleted == 0) {
            throw new ExperimentNotFoundException(id);
        }
        TraceFile.delete(dataDir, id);
    }

    private Counter submittedCounter(String policy) {
        return submitted.computeIfAbsent(policy, p -> Counter.builder("schedlab.experiments.submitted")
                .description("Experiments accepted for simulation")
                .tag("policy", p)
                .register(meters));
    }

    @SuppressWarnings("unchecked")
    private Experiment toExperiment(ExperimentRow r) {
        Map<String, String> labels = reader.readStored(r.labelsJson(), Map.class);
        Experiment.Summary summary = r.status().finished() && r.events() != null
                ? new Experiment.Summary(r.simulatedNanos(), Math.round(r.wallSeconds() * 1e9), r.events(),
                        r.contextSwitches(),
                        r.migrations(), r.jainFairness())
                : null;
        Double wall = r.wallSeconds();
        if (wall == null && r.startedAt() != null) {
            Instant end = r.finishedAt() != null ? r.finishedAt() : Instant.now();
            wall = Math.max(0, Duration.between(r.startedAt(), end).toNanos() / 1e9);
        }
        return new Experiment(r.id(), r.name(), labels, r.policy(), r.status(), r.progress(), r.simulatedNanos() / 1e9,
                r.createdAt(), r.startedAt(), r.finishedAt(), wall, r.failureReason(), r.cancelRequested(),
                r.engineVersion(), summary);
    }
}
