package io.schedlab.engine.scenarios;

import io.schedlab.engine.Engine;
import io.schedlab.engine.scenarios.ScenarioResult.Cell;
import io.schedlab.engine.scenarios.ScenarioResult.TableResult;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.Limits;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Predicate;
import tools.jackson.databind.JsonNode;

/**
 * Runs a scenario's experiments one after the other and fills its tables. A run whose policy is not
 * registered is skipped with the note "policy 'x' not available yet"; a run the engine rejects or
 * fails is skipped with the reason; neither stops the other runs.
 */
public final class ScenarioRunner {

    /** Runs one raw experiment and returns its result document as a JSON tree. */
    @FunctionalInterface
    public interface Executor {
        JsonNode run(ExperimentSpec raw);
    }

    /** Field added to the JSON tree of a traced run: {@code {checked, violations, examples}} of its {@link AffinityAudit}. */
    public static final String AUDIT_FIELD = EngineExecutor.AUDIT_FIELD;

    private final Executor executor;
    private final Predicate<String> policyAvailable;

    public ScenarioRunner(Executor executor, Predicate<String> policyAvailable) {
        this.executor = executor;
        this.policyAvailable = policyAvailable;
    }

    /** A runner over the real engine: validate (normalize) then run, with the given limits. */
    public static ScenarioRunner of(Engine engine, Limits limits) {
        return new ScenarioRunner(new EngineExecutor(engine, limits), name -> engine.registry().policy(name).isPresent());
    }

    /** Runs every table; an experiment that appears in several tables (equal spec and seed) runs once. */
    public ScenarioResult run(Scenario scenario, Consumer<String> progress) {
        List<TableResult> tables = new ArrayList<>();
        Map<ExperimentSpec, JsonNode> done = new LinkedHashMap<>();
        for (ScenarioTable table : scenario.tables()) {
            tables.add(runTable(table, progress, done));
        }
        return new ScenarioResult(scenario, tables);
    }

    private TableResult runTable(ScenarioTable table, Consumer<String> progress, Map<ExperimentSpec, JsonNode> done) {
        Map<String, Map<String, Accumulator>> acc = new LinkedHashMap<>();
        Set<String> notes = new LinkedHashSet<>();
        for (ScenarioRun run : table.runs()) {
            if (run.note() != null) {
                notes.add(run.note());
            }
            String policy = run.spec().scheduler() == null ? null : run.spec().scheduler().policy();
            if (policy != null && !policyAvailable.test(policy)) {
                notes.add("policy '" + policy + "' not available yet (not registered in this engine): its cells are n/a");
                continue;
            }
            for (int r = 0; r < run.repeats(); r++) {
                long seed = (run.spec().seed() == null ? 1 : run.spec().seed()) + r;
                ExperimentSpec spec = Specs.withSeed(run.spec(), seed);
                JsonNode doc = done.get(spec);
                try {
                    if (doc == null) {
                        progress.accept(run.label() + (run.repeats() > 1 ? " (seed " + seed + ")" : ""));
                        doc = executor.run(spec);
                        done.put(spec, doc);
                    }
                } catch (RuntimeException e) {
                    notes.add(run.label() + " failed: " + e.getMessage());
                    break;
                }
                for (Measure m : run.measures()) {
                    Double value = m.extract().apply(doc);
                    Accumulator a = acc.computeIfAbsent(m.row(), k -> new LinkedHashMap<>())
                            .computeIfAbsent(m.column(), k -> new Accumulator());
                    a.published = m.published();
                    if (value == null || !Double.isFinite(value)) {
                        notes.add(run.label() + ": no value for " + m.row() + " / " + m.column());
                    } else {
                        a.add(value);
                    }
                }
            }
        }
        // Published numbers also for cells whose run did not happen, so the table always shows them.
        for (ScenarioRun run : table.runs()) {
            for (Measure m : run.measures()) {
                acc.computeIfAbsent(m.row(), k -> new LinkedHashMap<>())
                        .computeIfAbsent(m.column(), k -> new Accumulator()).published = m.published();
            }
        }
        Map<String, Map<String, Cell>> cells = new LinkedHashMap<>();
        acc.forEach((row, cols) -> {
            Map<String, Cell> out = new LinkedHashMap<>();
            cols.forEach((col, a) -> out.put(col, a.cell()));
            cells.put(row, out);
        });
        return new TableResult(table, cells, List.copyOf(notes));
    }

    /** Running mean and variance (Welford). */
    private static final class Accumulator {
        private int n;
        private double mean;
        private double m2;
        private Double published;

        void add(double x) {
            n++;
            double d = x - mean;
            mean += d / n;
            m2 += d * (x - mean);
        }

        Cell cell() {
            return new Cell(n == 0 ? Double.NaN : mean, n > 1 ? Math.sqrt(m2 / (n - 1)) : 0, n, published);
        }
    }
}
