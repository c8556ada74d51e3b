package io.schedlab.sweeps;

import io.schedlab.access.CallerAccess;
import io.schedlab.access.CallerAccessProvider;
import io.schedlab.engine.spec.Violation;
import io.schedlab.engine.sweepgrid.SweepAggregator;
import io.schedlab.engine.sweepgrid.SweepCell;
import io.schedlab.engine.sweepgrid.SweepDefinition;
import io.schedlab.engine.sweepgrid.SweepPlan;
import io.schedlab.engine.sweepgrid.SweepPlanner;
import io.schedlab.engine.sweepgrid.SweepTable;
import io.schedlab.engine.sweepgrid.SweepViolation;
import io.schedlab.experiments.ExperimentConflictException;
import io.schedlab.experiments.ExperimentNotFoundException;
import io.schedlab.experiments.ExperimentService;
import io.schedlab.experiments.ExperimentSpecReader;
import io.schedlab.experiments.IdempotentSubmissions;
import io.schedlab.experiments.InvalidExperimentException;
import io.schedlab.experiments.MalformedExperimentException;
import io.schedlab.experiments.NotifyTargets;
import io.schedlab.experiments.ValidatedExperiment;
import io.schedlab.experiments.status.ExperimentStatus;
import io.schedlab.sweeps.persistence.NewSweepChild;
import io.schedlab.sweeps.persistence.SweepRow;
import io.schedlab.sweeps.persistence.SweepStore;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Service;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The sweeps use cases: submit (check, expand, validate every child, then store the sweep, its
 * children and their jobs in one transaction), read with progress and table, list and cancel.
 * The table is computed from the stored results of the children, so any replica can answer and
 * nothing is lost with a replica; once every child has finished it is stored with the sweep.
 * A sweep belongs to the API key that submitted it, as its children do; who may read or cancel it
 * is {@link CallerAccess}'s rule (another owner's sweep is not found).
 */
@Service
public class SweepService {

    /** Label every child carries: its sweep's id (list a sweep's children with {@code label=sweep:ID}). */
    public static final String SWEEP_LABEL = "sweep";
    /** Label every child carries: the index of its cell. */
    public static final String CELL_LABEL = "sweep-cell";
    /** Largest page a list request may ask for. */
    public static final int MAX_PAGE_SIZE = 100;
    private static final int MAX_NAME_LENGTH = 200;
    /** The operationId of POST /api/v1/sweeps: the scope of its Idempotency-Keys. */
    public static final String SUBMIT_OPERATION = "submitSweep";

    private final ExperimentService experiments;
    private final IdempotentSubmissions idempotency;
    private final SweepStore store;
    private final SweepPlanner planner;
    private final ExperimentSpecReader reader = new ExperimentSpecReader();
    private final JsonMapper json = JsonMapper.builder().build();
    private CallerAccessProvider access = CallerAccessProvider.OPEN;
    private NotifyTargets notifyTargets = NotifyTargets.NONE;

    public SweepService(ExperimentService experiments, SweepStore store, SweepsProperties limits,
            IdempotentSubmissions idempotency) {
        this.experiments = experiments;
        this.idempotency = idempotency;
        this.store = store;
        this.planner = new SweepPlanner(limits.limits());
    }

    /** Who is asking (set when API keys are wired; open to everyone otherwise). */
    @Autowired(required = false)
    void setAccessProvider(CallerAccessProvider access) {
        this.access = access;
    }

    /** Where a sweep's notify object is checked and recorded (none: a notify object is refused). */
    @Autowired(required = false)
    void setNotifyTargets(NotifyTargets notifyTargets) {
        this.notifyTargets = notifyTargets;
    }

    /** Reads and checks a sweep and validates every experiment it expands to; nothing is stored. */
    public Prepared prepare(byte[] body) {
        String raw = reader.decode(body);
        ExperimentSpecReader.ReadAll<SweepDefinition> read = reader.readWithNotify(raw, SweepDefinition.class,
                "a sweep");
        SweepDefinition definition = read.value();
        checkNotify(definition, read.notifyTarget());
        checkBaseSizes(definition);
        SweepPlan plan = planner.plan(definition);
        UUID id = UUID.randomUUID();
        List<ValidatedExperiment> children = new ArrayList<>(plan.total());
        List<NewSweepChild> links = new ArrayList<>(plan.total());
        List<SweepViolation> problems = new ArrayList<>();
        for (SweepCell cell : plan.cells()) {
            // a cell's repetitions differ only in their seed: the first bad one speaks for the cell, once;
            // every cell is checked, so a problem of some cells only names each of them
            for (int r = 0; r < plan.seeds().size(); r++) {
                List<Violation> cellProblems = childProblems(plan, cell, r, id, children);
                if (!cellProblems.isEmpty()) {
                    cellProblems.stream().distinct().forEach(v -> problems.add(inCell(cell, v)));
                    break;
                }
                links.add(new NewSweepChild(null, cell.index(), r));
            }
        }
        if (!problems.isEmpty()) {
            throw SweepPlanner.invalid(problems);
        }
        return new Prepared(id, raw, plan, children, links, read.notifyTarget());
    }

    /** The sweep's notify object (its children have none: a notify object in the base is refused). */
    private void checkNotify(SweepDefinition definition, tools.jackson.databind.JsonNode notify) {
        List<SweepViolation> problems = new ArrayList<>();
        if (definition.base() != null && definition.base().has(ExperimentSpecReader.NOTIFY)) {
            problems.add(SweepViolation.of("/base/" + ExperimentSpecReader.NOTIFY,
                    "name notify on the sweep, not on its base (its children are not notified one by one)"));
        }
        if (notify != null) {
            notifyTargets.check(notify).forEach(v -> problems.add(SweepViolation.of(v.pointer(), v.message())));
        }
        if (!problems.isEmpty()) {
            throw SweepPlanner.invalid(problems);
        }
    }

    /** The problems of one child (cell, repetition), or none after adding it validated to {@code children}. */
    private List<Violation> childProblems(SweepPlan plan, SweepCell cell, int repetition, UUID id,
            List<ValidatedExperiment> children) {
        ObjectNode child = child(plan, cell, repetition, id);
        try {
            children.add(experiments.validate(json.writeValueAsBytes(child)));
            return List.of();
        } catch (InvalidExperimentException e) {
            return e.violations();
        } catch (MalformedExperimentException e) {
            return e.violations();
        }
    }

    /**
     * The base's list and name lengths before it is copied into every cell and child: an oversized
     * base (10,000 VMs in a 1 MiB body) is refused at once, not after its copies were built.
     */
    private void checkBaseSizes(SweepDefinition definition) {
        if (definition.base() == null || !definition.base().isObject()) {
            return; // the planner names a missing base
        }
        List<Violation> sizes = experiments.sizeViolations(definition.base());
        if (!sizes.isEmpty()) {
            throw SweepPlanner.invalid(sizes.stream().map(v -> SweepViolation.of("/base" + v.pointer(), v.message()))
                    .toList());
        }
    }

    /** Checks, expands and validates, then stores the sweep with all its children and jobs, or nothing. */
    public Sweep submit(byte[] body) {
        return submit(body, null).value();
    }

    /** As {@link #submit(byte[])}, with an optional Idempotency-Key: the same key and body replay the first sweep. */
    public IdempotentSubmissions.Answer<Sweep> submit(byte[] body, String idempotencyKey) {
        IdempotentSubmissions.Answer<List<Sweep>> all = submitAll(SUBMIT_OPERATION, body, List.of(body), idempotencyKey);
        return new IdempotentSubmissions.Answer<>(all.value().get(0), all.replayed());
    }

    /**
     * Checks, expands and validates every definition, then stores all the sweeps with their children
     * and jobs in one transaction, or nothing (a scenario run stores its tables so); their children
     * count together against the job queue and the caller's quota. With an Idempotency-Key, the same
     * {@code operation} and {@code request} (the body as sent) later replay the same sweeps.
     */
    public IdempotentSubmissions.Answer<List<Sweep>> submitAll(String operation, byte[] request,
            List<byte[]> definitions, String idempotencyKey) {
        return idempotency.submit(operation, request, idempotencyKey,
                record -> store(definitions.stream().map(this::prepare).toList(), record),
                ids -> ids.stream().map(this::get).toList());
    }

    /** Stores prepared sweeps, their children and jobs in one transaction, with {@code record} given the sweep ids. */
    private List<Sweep> store(List<Prepared> prepared, Consumer<List<UUID>> record) {
        Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
        String owner = access.current().owner();
        List<ValidatedExperiment> children = prepared.stream().flatMap(p -> p.children().stream()).toList();
        experiments.submitValidated(children, ids -> {
            record.accept(prepared.stream().map(Prepared::id).toList());
            int offset = 0;
            for (Prepared p : prepared) {
                SweepDefinition d = p.plan().definition();
                store.insert(new SweepRow(p.id(), d.name(), p.raw(), json.writeValueAsString(SweepLayout.of(p.plan())),
                        p.plan().total(), now, false, null, null, owner));
                List<NewSweepChild> links = new ArrayList<>(p.links().size());
                for (int i = 0; i < p.links().size(); i++) {
                    NewSweepChild link = p.links().get(i);
                    links.add(new NewSweepChild(ids.get(offset + i), link.cellIndex(), link.repetition()));
                }
                store.link(p.id(), links);
                if (p.notifyTarget() != null) {
                    notifyTargets.record("sweep", p.id(), owner, p.notifyTarget());
                }
                offset += p.links().size();
            }
        });
        return prepared.stream().map(p -> get(p.id())).toList();
    }

    /**
     * A checked sweep ready to store: its id, the body as sent, the plan, the validated children, their
     * cells and its checked notify object (null: none).
     */
    public record Prepared(UUID id, String raw, SweepPlan plan, List<ValidatedExperiment> children,
            List<NewSweepChild> links, tools.jackson.databind.JsonNode notifyTarget) {
    }

    /** Status, progress and, once every child has finished, the table. */
    public Sweep get(UUID id) {
        SweepRow row = visibleRow(id);
        Map<ExperimentStatus, Long> counts = store.statusCounts(id);
        SweepStatus status = status(row, counts);
        SweepTable table = null;
        Instant finishedAt = row.finishedAt();
        if (status.finished()) {
            if (row.tableJson() != null) {
                table = json.readValue(row.tableJson(), SweepTable.class);
            } else {
                table = computeTable(row, true);
                finishedAt = Instant.now().truncatedTo(ChronoUnit.MICROS);
                store.finish(id, json.writeValueAsString(table), finishedAt);
            }
        }
        return view(row, counts, status, finishedAt, table);
    }

    /** The table over the children SUCCEEDED so far ({@code complete} once every child has finished). */
    public SweepTable table(UUID id) {
        Sweep sweep = get(id);
        if (sweep.table() != null) {
            return sweep.table();
        }
        return computeTable(visibleRow(id), false);
    }

    /** The definition exactly as sent. */
    public String definition(UUID id) {
        return visibleRow(id).definition();
    }

    /** The row, if it exists and the caller may read it (another owner's sweep is not found). */
    private SweepRow visibleRow(UUID id) {
        SweepRow row = store.find(id).orElseThrow(() -> new SweepNotFoundException(id));
        if (!access.current().mayRead(row.owner())) {
            throw new SweepNotFoundException(id);
        }
        return row;
    }

    /** A page of sweeps, newest first, with status and progress (no tables). */
    public SweepPage list(int page, int size) {
        if (page < 0 || size < 1 || size > MAX_PAGE_SIZE) {
            throw new IllegalArgumentException("page must be >= 0 and size 1.." + MAX_PAGE_SIZE);
        }
        String owner = access.current().listOwner();
        List<Sweep> items = new ArrayList<>();
        for (SweepRow row : store.page(owner, page, size)) {
            Map<ExperimentStatus, Long> counts = store.statusCounts(row.id());
            items.add(view(row, counts, status(row, counts), row.finishedAt(), null));
        }
        long total = store.count(owner);
        return new SweepPage(items, page, size, total, (int) Math.min(Integer.MAX_VALUE, (total + size - 1) / size));
    }

    /** One page of sweeps. */
    public record SweepPage(List<Sweep> items, int page, int size, long totalItems, int totalPages) {
    }

    /**
     * Cancels every child still QUEUED (at once) or RUNNING (its job stops); a finished sweep is a
     * conflict. The sweep ends CANCELLED once its running children have stopped.
     */
    public Sweep cancel(UUID id) {
        access.current().requireChange(visibleRow(id).owner(), "sweep " + id);
        Sweep before = get(id);
        if (before.status().finished()) {
            throw new ExperimentConflictException("sweep " + id + " is already " + before.status()
                    + "; only a QUEUED or RUNNING sweep can be cancelled");
        }
        store.requestCancel(id);
        for (UUID child : store.activeChildren(id)) {
            try {
                experiments.cancel(child);
            } catch (ExperimentConflictException | ExperimentNotFoundException finishedMeanwhile) {
                // it finished between the query and the cancel: nothing to stop
            }
        }
        return get(id);
    }

    private SweepTable computeTable(SweepRow row, boolean complete) {
        SweepLayout layout = json.readValue(row.layoutJson(), SweepLayout.class);
        SweepAggregator aggregator = new SweepAggregator(layout.cells(), layout.metrics());
        store.forEachResult(row.id(), (cell, repetition, result) -> aggregator.add(cell, result));
        return aggregator.table(row.id(), complete, layout.axes(), layout.baselineCell(), layout.published());
    }

    private static SweepStatus status(SweepRow row, Map<ExperimentStatus, Long> counts) {
        return SweepStatus.of(row.total(), row.cancelRequested(), counts);
    }

    private Sweep view(SweepRow row, Map<ExperimentStatus, Long> counts, SweepStatus status, Instant finishedAt,
            SweepTable table) {
        Map<String, Long> children = new LinkedHashMap<>();
        long done = 0;
        for (ExperimentStatus s : ExperimentStatus.values()) {
            long n = counts.getOrDefault(s, 0L);
            children.put(s.name(), n);
            done += s.finished() ? n : 0;
        }
        return new Sweep(row.id(), row.name(), status, row.total(), done, children, row.createdAt(),
                status.finished() ? finishedAt : null, row.cancelRequested(), table);
    }

    private ObjectNode child(SweepPlan plan, SweepCell cell, int repetition, UUID sweepId) {
        ObjectNode child = plan.experiment(cell.index(), repetition);
        String base = plan.definition().name() != null ? plan.definition().name()
                : child.path("name").isString() ? child.path("name").asString() : "sweep";
        child.put("name", truncate(base + " [" + cell.key() + "] #" + repetition));
        if (child.path("labels").isObject() || child.path("labels").isMissingNode() || child.path("labels").isNull()) {
            ObjectNode labels = child.path("labels").isObject() ? (ObjectNode) child.get("labels") : child.putObject("labels");
            labels.put(SWEEP_LABEL, sweepId.toString());
            labels.put(CELL_LABEL, Integer.toString(cell.index()));
        }
        return child;
    }

    private static SweepViolation inCell(SweepCell cell, Violation v) {
        String pointer = v.pointer() == null ? "" : v.pointer();
        return new SweepViolation("/base" + pointer, v.message(), cell.key(), cell.index(), pointer);
    }

    private static String truncate(String s) {
        return s == null || s.length() <= MAX_NAME_LENGTH ? s : s.substring(0, MAX_NAME_LENGTH - 3) + "...";
    }
}
