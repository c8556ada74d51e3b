package io.schedlab.engine.catalogue;

import io.schedlab.engine.Engine;
import io.schedlab.engine.knobs.KnobSet;
import io.schedlab.engine.catalogue.ScenarioResult.Cell;
import io.schedlab.engine.catalogue.ScenarioResult.TableResult;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.Limits;
import io.schedlab.engine.sweepgrid.SweepAggregator;
import io.schedlab.engine.sweepgrid.SweepDefinition.PublishedCell;
import io.schedlab.engine.sweepgrid.SweepDefinition;
import io.schedlab.engine.sweepgrid.SweepLimits;
import io.schedlab.engine.sweepgrid.SweepPlan;
import io.schedlab.engine.sweepgrid.SweepPlanner;
import io.schedlab.engine.sweepgrid.SweepTable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import java.util.function.Predicate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Runs a scenario on this machine as the service runs it, from the same sweep definitions
 * ({@link ScenarioSweep}): each table's definition is expanded by the engine's
 * {@link SweepPlanner}, its children run here (on {@code threads} threads; results are
 * aggregated in cell and repetition order, so the table does not depend on the thread count)
 * and tabulated by the same {@link SweepAggregator} as the service's table. A run whose policy
 * is not registered is skipped with the note "policy 'x' not available yet"; a run the engine
 * rejects or fails is skipped with the reason; neither stops the other runs.
 */
public final class ScenarioRunner {

    /** Runs one raw experiment and returns its result document as a JSON tree. */
    @FunctionalInterface
    public interface Executor {
        JsonNode run(ExperimentSpec raw);
    }

    /** Field added to the JSON tree of a traced run: {@code {checked, violations, examples}} of its {@link AffinityAudit}. */
    public static final String AUDIT_FIELD = EngineExecutor.AUDIT_FIELD;

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final Executor executor;
    private final Predicate<String> policyAvailable;
    private final int threads;
    private final SweepPlanner planner = new SweepPlanner(SweepLimits.DEFAULTS);

    public ScenarioRunner(Executor executor, Predicate<String> policyAvailable) {
        this(executor, policyAvailable, 1);
    }

    public ScenarioRunner(Executor executor, Predicate<String> policyAvailable, int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be >= 1");
        }
        this.executor = executor;
        this.policyAvailable = policyAvailable;
        this.threads = threads;
    }

    /** A runner over the real engine on one thread. */
    public static ScenarioRunner of(Engine engine, Limits limits) {
        return of(engine, limits, 1);
    }

    /** A runner over the real engine: validate (normalize) then run, with the given limits, on {@code threads} threads. */
    public static ScenarioRunner of(Engine engine, Limits limits, int threads) {
        return of(engine, limits, threads, KnobSet.DEFAULTS);
    }

    /** A runner over the real engine whose experiments take the knob values of {@code knobs} where they leave them out. */
    public static ScenarioRunner of(Engine engine, Limits limits, int threads, KnobSet knobs) {
        return new ScenarioRunner(new EngineExecutor(engine, limits, knobs),
                name -> engine.registry().policy(name).isPresent(), threads);
    }

    /** Runs every table; an experiment that appears in several tables (equal spec and seed) runs once. */
    public ScenarioResult run(Scenario scenario, Consumer<String> progress) {
        Map<ExperimentSpec, Future<JsonNode>> done = new ConcurrentHashMap<>();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<TableResult> tables = new ArrayList<>();
            for (int t = 0; t < scenario.tables().size(); t++) {
                tables.add(runTable(scenario.tables().get(t), ScenarioSweep.of(scenario, t), progress, done, pool));
            }
            return new ScenarioResult(scenario, tables);
        } finally {
            pool.shutdownNow();
        }
    }

    /** One child of the sweep: its cell, repetition, spec and result (null when skipped). */
    private record Child(int cell, String label, long seed, ExperimentSpec spec, Future<JsonNode> result) {
    }

    private TableResult runTable(ScenarioTable table, SweepDefinition definition, Consumer<String> progress,
            Map<ExperimentSpec, Future<JsonNode>> done, ExecutorService pool) {
        SweepPlan plan = planner.plan(definition);
        Set<String> notes = new LinkedHashSet<>();
        List<List<Child>> children = new ArrayList<>();
        for (var cell : plan.cells()) {
            String label = cell.levels().get(ScenarioSweep.AXIS);
            List<Child> runs = new ArrayList<>();
            children.add(runs);
            String policy = plan.cellExperiments().get(cell.index()).path("scheduler").path("policy").asString(null);
            if (policy != null && !policyAvailable.test(policy)) {
                continue;
            }
            for (int r = 0; r < plan.seeds().size(); r++) {
                ExperimentSpec spec = JSON.treeToValue(plan.experiment(cell.index(), r), ExperimentSpec.class);
                long seed = plan.seeds().get(r);
                String line = label + (plan.seeds().size() > 1 ? " (seed " + seed + ")" : "");
                Future<JsonNode> result = done.computeIfAbsent(spec, s -> pool.submit(() -> {
                    progress.accept(line);
                    return executor.run(s);
                }));
                runs.add(new Child(cell.index(), label, seed, spec, result));
            }
        }
        SweepAggregator aggregator = new SweepAggregator(plan.cells(), definition.metrics());
        for (var cell : plan.cells()) {
            String label = cell.levels().get(ScenarioSweep.AXIS);
            List<PublishedCell> measures = definition.published().cells().stream()
                    .filter(p -> p.cell().get(ScenarioSweep.AXIS).equals(label)).toList();
            measures.stream().map(PublishedCell::note).filter(n -> n != null).forEach(notes::add);
            String policy = plan.cellExperiments().get(cell.index()).path("scheduler").path("policy").asString(null);
            if (policy != null && !policyAvailable.test(policy)) {
                notes.add("policy '" + policy + "' not available yet (not registered in this engine): its cells are n/a");
                continue;
            }
            for (Child child : children.get(cell.index())) {
                JsonNode doc;
                try {
                    doc = child.result().get();
                } catch (ExecutionException e) {
                    notes.add(label + " failed: " + e.getCause().getMessage());
                    break;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted", e);
                }
                aggregator.add(cell.index(), doc);
                for (PublishedCell m : measures) {
                    if (metric(definition, m.metric()).read(doc) == null) {
                        notes.add(label + ": no value for " + m.row() + " / " + m.column());
                    }
                }
            }
        }
        SweepTable result = aggregator.table(null, true, plan.axisNames(), null, definition.published());
        Map<String, Map<String, Cell>> cells = new LinkedHashMap<>();
        for (SweepTable.PublishedCellView v : result.published().cells()) {
            Cell cell = new Cell(v.mean() == null ? Double.NaN : v.mean(), v.sd() == null ? 0 : v.sd(), (int) v.n(),
                    v.published(), v.ratio(), v.publishedRatio(), v.band(), v.pass());
            cells.computeIfAbsent(v.row(), k -> new LinkedHashMap<>()).put(v.column(), cell);
        }
        return new TableResult(table, cells, List.copyOf(notes));
    }

    private static SweepDefinition.Metric metric(SweepDefinition d, String name) {
        return d.metrics().stream().filter(m -> m.name().equals(name)).findFirst().orElseThrow();
    }
}
