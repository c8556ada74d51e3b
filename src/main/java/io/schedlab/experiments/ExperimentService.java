package io.schedlab.experiments;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.schedlab.access.CallerAccess;
import io.schedlab.access.CallerAccessProvider;
import io.schedlab.engine.Engine;
import io.schedlab.engine.Validation;
import io.schedlab.engine.admission.CostEstimate;
import io.schedlab.engine.admission.CostEstimator;
import io.schedlab.engine.registry.PolicyDescriptor;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.Violation;
import io.schedlab.experiments.status.ExperimentStatus;
import io.schedlab.experiments.persistence.ExperimentFilter;
import io.schedlab.experiments.persistence.ExperimentRepository;
import io.schedlab.experiments.persistence.ExperimentRow;
import io.schedlab.experiments.persistence.LabelsJson;
import io.schedlab.experiments.persistence.NewExperiment;
import io.schedlab.experiments.persistence.SubmissionTransaction;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.springframework.beans.factory.ObjectProvider;
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
    private static final Duration QUOTA_RETRY_AFTER = Duration.ofSeconds(10);
    /** The operationId of POST /api/v1/experiments: the scope of its Idempotency-Keys. */
    public static final String SUBMIT_OPERATION = "submitExperiment";
    private static final List<ExperimentStatus> ACTIVE = List.of(ExperimentStatus.QUEUED, ExperimentStatus.RUNNING);

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
    private CallerAccessProvider access = CallerAccessProvider.OPEN;
    private IdempotentSubmissions idempotency;
    private QuotaProperties quotas = QuotaProperties.NONE;
    private StorageGuard storage = new StorageGuard(0, () -> Long.MAX_VALUE);
    private NotifyTargets notifyTargets = NotifyTargets.NONE;
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

    /** The free-disk check on submissions (none when the service is assembled without it). */
    @org.springframework.beans.factory.annotation.Autowired(required = false)
    void setStorageGuard(StorageGuard storage) {
        this.storage = storage;
    }

    /** Where a submission's notify object is checked and recorded (none: a notify object is refused). */
    @org.springframework.beans.factory.annotation.Autowired(required = false)
    void setNotifyTargets(NotifyTargets notifyTargets) {
        this.notifyTargets = notifyTargets;
    }

    /** Who is asking (set when API keys are wired; open to everyone otherwise). */
    @org.springframework.beans.factory.annotation.Autowired(required = false)
    void setAccessProvider(CallerAccessProvider access) {
        this.access = access;
    }

    /** Idempotency-Key handling and the per-key quotas ({@code schedlab.quotas.*}). */
    @org.springframework.beans.factory.annotation.Autowired
    void configureSubmissions(ObjectProvider<IdempotentSubmissions> idempotency, ObjectProvider<QuotaProperties> quotas) {
        this.idempotency = idempotency.getIfAvailable();
        this.quotas = quotas.getIfAvailable(() -> QuotaProperties.NONE);
    }

    /** Full validation of a body, including its estimated cost against the limits; nothing is stored. */
    public ValidatedExperiment validate(byte[] body) {
        String raw = reader.decode(body);
        ExperimentSpecReader.ReadAll<ExperimentSpec> read = reader.readAllWithNotify(raw, ExperimentSpec.class,
                "an experiment");
        ExperimentSpec spec = read.value();
        Validation validation = engine.validate(spec, limits.toEngineLimits());
        List<Violation> violations = SubmissionRules.merge(SubmissionRules.check(spec), validation.violations());
        if (read.notifyTarget() != null) {
            violations = new java.util.ArrayList<>(violations);
            violations.addAll(notifyTargets.check(read.notifyTarget()));
        }
        if (!read.typeProblems().isEmpty()) {
            // wrongly typed values and every other problem of the body in one answer; a value left out
            // for its type is not reported again as missing
            throw new MalformedExperimentException(SubmissionRules.merge(read.typeProblems(), violations.stream()
                    .filter(v -> read.typeProblems().stream().noneMatch(t -> within(v.pointer(), t.pointer())))
                    .toList()));
        }
        if (!violations.isEmpty()) {
            throw new InvalidExperimentException(violations);
        }
        CostEstimate cost = CostEstimator.estimate(validation.normalized(), engine.registry());
        if (cost.events() > limits.maxEvents() || cost.heapBytes() > limits.maxRunHeapBytes()) {
            throw new ExperimentTooCostlyException(cost, limits.maxEvents(), limits.maxRunHeapBytes());
        }
        return new ValidatedExperiment(raw, validation.normalized(), reader.write(validation.normalized()),
                read.notifyTarget());
    }

    /** The pointer is the other one or lies under it. */
    private static boolean within(String pointer, String other) {
        return pointer != null && (pointer.equals(other) || pointer.startsWith(other + "/"));
    }

    /**
     * The size problems of an experiment given as a JSON tree (list and name lengths against the
     * limits); empty when there are none or when it does not read as an experiment at all (its full
     * validation reports that). For a sweep's base, before it is copied into every child.
     */
    public List<Violation> sizeViolations(tools.jackson.databind.JsonNode experiment) {
        ExperimentSpec spec;
        try {
            spec = reader.read(experiment);
        } catch (MalformedExperimentException e) {
            return List.of();
        }
        return io.schedlab.engine.spec.SpecValidator.sizeViolations(spec, limits.toEngineLimits());
    }

    /** Validates, stores as QUEUED and enqueues the simulation job in the same transaction. */
    public Experiment submit(byte[] body) {
        return submit(body, null).value();
    }

    /**
     * As {@link #submit(byte[])}, with an optional Idempotency-Key ({@link IdempotentSubmissions}):
     * the key is stored with the experiment in one transaction, and the same key and body later
     * replay that experiment.
     */
    public IdempotentSubmissions.Answer<Experiment> submit(byte[] body, String idempotencyKey) {
        if (idempotencyKey == null || idempotency == null) {
            return new IdempotentSubmissions.Answer<>(store(validate(body), access.current(), ids -> { }), false);
        }
        return idempotency.submit(SUBMIT_OPERATION, body, idempotencyKey,
                record -> store(validate(body), access.current(), id -> record.accept(List.of(id))),
                ids -> get(ids.get(0)));
    }

    /**
     * Stores already validated experiments as QUEUED and enqueues their jobs, all in one transaction
     * together with {@code alsoInTransaction} (given the new ids in order; e.g. linking them to a
     * sweep): all of them are stored, or none. 429 when they would not fit under the queue limit or
     * the caller's quota.
     */
    public List<Experiment> submitValidated(List<ValidatedExperiment> valid, Consumer<List<UUID>> alsoInTransaction) {
        return store(valid, access.current(), ids -> { }, alsoInTransaction);
    }

    /** One experiment, with {@code beforeInsert} (e.g. its idempotency key) in the same transaction. */
    private Experiment store(ValidatedExperiment valid, CallerAccess caller, Consumer<UUID> beforeInsert) {
        return store(List.of(valid), caller, ids -> beforeInsert.accept(ids.get(0)), ids -> { }).get(0);
    }

    /**
     * Checks the queue and the caller's quota, then stores and enqueues in one transaction, with
     * {@code beforeInsert} and {@code afterInsert} given the new ids in order.
     */
    private List<Experiment> store(List<ValidatedExperiment> valid, CallerAccess caller,
            Consumer<List<UUID>> beforeInsert, Consumer<List<UUID>> afterInsert) {
        long depth = queueDepth.current();
        if (depth + valid.size() > maxQueued) {
            depth = queueDepth.confirmed(); // a refusal rests on a recent count, not a burst's stale estimate
        }
        if (depth + valid.size() > maxQueued) {
            throw new QueueFullException(depth, maxQueued, QUEUE_FULL_RETRY_AFTER);
        }
        checkQuotas(caller.owner(), valid.size());
        storage.requireRoom();
        Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
        List<NewExperiment> experiments = valid.stream().map(v -> newExperiment(v, now, caller.owner())).toList();
        List<UUID> ids = experiments.stream().map(NewExperiment::id).toList();
        submissionTransaction.run(() -> {
            beforeInsert.accept(ids);
            // a sweep's children as one batch of experiment rows and one of jobs (500 single-row inserts each before)
            repository.insertQueuedAll(experiments);
            jobQueue.enqueueAll(ids);
            for (int i = 0; i < valid.size(); i++) {
                if (valid.get(i).notifyTarget() != null) {
                    notifyTargets.record("experiment", ids.get(i), caller.owner(), valid.get(i).notifyTarget());
                }
            }
            afterInsert.accept(ids);
        });
        for (NewExperiment experiment : experiments) {
            queueDepth.accepted();
            submittedCounter(experiment.policy()).increment();
        }
        return experiments.stream().map(e -> toExperiment(e.toRow())).toList();
    }

    /** 429 when {@code adding} more experiments would take the owner over its queued (or legacy active) quota. */
    private void checkQuotas(String owner, long adding) {
        if (owner == null) {
            return;
        }
        if (quotas.maxQueuedPerKey() > 0) {
            long queued = repository.countByOwnerAndStatusIn(owner, List.of(ExperimentStatus.QUEUED));
            if (queued + adding > quotas.maxQueuedPerKey()) {
                throw new QuotaExceededException(owner, "queued", "schedlab.quotas.max-queued-per-key", queued, adding,
                        quotas.maxQueuedPerKey(), QUOTA_RETRY_AFTER);
            }
        }
        if (quotas.maxActivePerKey() > 0) {
            long active = repository.countByOwnerAndStatusIn(owner, ACTIVE);
            if (active + adding > quotas.maxActivePerKey()) {
                throw new QuotaExceededException(owner, "queued or running", "schedlab.quotas.max-active-per-key",
                        active, adding, quotas.maxActivePerKey(), QUOTA_RETRY_AFTER);
            }
        }
    }

    private static NewExperiment newExperiment(ValidatedExperiment valid, Instant now, String owner) {
        ExperimentSpec spec = valid.normalized();
        return new NewExperiment(UUID.randomUUID(), spec.name(),
                LabelsJson.write(spec.labels() == null ? Map.of() : spec.labels()), spec.scheduler().policy(),
                valid.raw(), valid.normalizedJson(), Engine.VERSION, now, owner);
    }

    /** Runs a queue-depth refresh on a short-lived daemon thread (at most one at a time, once per interval). */
    private static void refreshInBackground(Runnable refresh) {
        Thread t = new Thread(refresh, "queue-depth-refresh");
        t.setDaemon(true);
        t.start();
    }

    /** One experiment's status view. */
    public Experiment get(UUID id) {
        return toExperiment(visibleRow(id));
    }

    /** The row, if it exists and the caller may read it (another owner's experiment is not found). */
    private ExperimentRow visibleRow(UUID id) {
        ExperimentRow row = repository.findRow(id).orElseThrow(() -> new ExperimentNotFoundException(id));
        if (!access.current().mayRead(row.owner())) {
            throw new ExperimentNotFoundException(id);
        }
        return row;
    }

    /** Throws not-found unless the caller may read the experiment (no read when it reads all). */
    private void requireVisible(UUID id) {
        if (!access.current().readsAll()) {
            visibleRow(id);
        }
    }

    /** Throws not-found unless the caller may read the experiment, forbidden unless it may change it. */
    private void requireChangeable(UUID id) {
        CallerAccess caller = access.current();
        if (caller.changesAll()) {
            return;
        }
        caller.requireChange(visibleRow(id).owner(), "experiment " + id);
    }

    /** The stored input: exactly as sent, and normalized. */
    public StoredInput input(UUID id) {
        requireVisible(id);
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
        CallerAccess caller = access.current();
        if (caller.listOwner() != null) {
            filter = filter.ownedBy(caller.listOwner());
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
        requireChangeable(id);
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
        ExperimentRow row = visibleRow(id);
        requireResult(row);
        return repository.findResult(id).orElseThrow(() -> new ExperimentNotFoundException(id));
    }

    /**
     * Throws {@link ExperimentNotFoundException}, {@link ResultsNotReadyException} (QUEUED or
     * RUNNING) or {@link NoResultsException} (finished without ever running) unless it has a result.
     */
    public Experiment requireResult(UUID id) {
        ExperimentRow row = visibleRow(id);
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
        requireChangeable(id);
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
                r.engineVersion(), summary, r.owner(), r.runBy());
    }
}
