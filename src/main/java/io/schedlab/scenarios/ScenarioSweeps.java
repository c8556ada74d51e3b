package io.schedlab.scenarios;

import io.schedlab.engine.catalogue.BuiltInScenarios;
import io.schedlab.engine.catalogue.Scenario;
import io.schedlab.engine.catalogue.ScenarioSweep;
import io.schedlab.engine.sweepgrid.SweepDefinition.Axis;
import io.schedlab.engine.sweepgrid.SweepDefinition.Variant;
import io.schedlab.engine.sweepgrid.SweepDefinition;
import io.schedlab.engine.sweepgrid.SweepLimits;
import io.schedlab.engine.sweepgrid.SweepPlanner;
import io.schedlab.engine.sweepgrid.SweepViolation;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.LongStream;
import tools.jackson.databind.node.ObjectNode;

/**
 * The built-in scenarios as the service serves them: each table is the sweep definition the
 * engine builds for it ({@link ScenarioSweep}), the same one the command line's
 * {@code scenario} command expands and runs, published table included.
 */
public final class ScenarioSweeps {

    private final OverridesCheck overridesCheck;

    /** Scenario runs held to these sweep limits and longest simulated duration. */
    public ScenarioSweeps(SweepLimits limits, double maxDurationSeconds) {
        this.overridesCheck = new OverridesCheck(limits, maxDurationSeconds);
    }

    /**
     * The definitions a run of these tables submits, the overrides applied; the overrides are
     * checked first ({@link OverridesCheck}), so a refused size expands nothing.
     */
    public List<SweepDefinition> runDefinitions(List<TableSweep> tables, Overrides overrides) {
        List<SweepViolation> problems = overridesCheck.check(overrides, tables);
        if (!problems.isEmpty()) {
            throw SweepPlanner.invalid(problems);
        }
        return tables.stream().map(t -> withOverrides(t.definition(), overrides)).toList();
    }

    /** Every scenario in order, at full size. */
    public List<ScenarioView> all() {
        return BuiltInScenarios.all(false).stream().map(ScenarioSweeps::view).toList();
    }

    public Optional<ScenarioView> byName(String name) {
        return BuiltInScenarios.byId(name, false).map(ScenarioSweeps::view);
    }

    /** A scenario with its tables as sweep definitions. */
    @Schema(name = "Scenario", description = "A published experiment: source in the title, set-up, expected shape, its tables")
    public record ScenarioView(String name, String title, List<String> setup, String expectedShape,
            List<TableSweep> tables) {
    }

    /**
     * One table: caption, rows and columns as published, and the sweep definition that fills it
     * (its {@code published} member holds every published cell). A table the service does not
     * run says why in {@code note}.
     */
    @Schema(name = "ScenarioTableSweep", description = "A published table and the sweep definition that fills it")
    public record TableSweep(String caption, String rowHeader, List<String> rows, List<String> columns,
            @Schema(description = "the sweep definition for POST /api/v1/sweeps; definition.published lists the"
                    + " published cells and the variant and metric that fill each") SweepDefinition definition,
            @Schema(description = "why the service does not run this table (POST .../runs skips it), else null") String note) {
    }

    private static ScenarioView view(Scenario s) {
        List<TableSweep> tables = new ArrayList<>();
        for (int t = 0; t < s.tables().size(); t++) {
            SweepDefinition d = ScenarioSweep.of(s, t);
            String note = ScenarioSweep.needsAudit(d) ? "reads the command line's in-process trace audit (scenario "
                    + s.id() + "); the service's runs have none, so it is not run as a sweep" : null;
            var p = d.published();
            tables.add(new TableSweep(p.caption(), p.rowHeader(), p.rows(), p.columns(), d, note));
        }
        return new ScenarioView(s.id(), s.title(), s.setup(), s.expectedShape(), tables);
    }

    /** Optional changes of a scenario run: repetitions of every cell, simulated seconds of every run. */
    @Schema(name = "ScenarioRunOverrides", description = "Optional changes of a scenario run")
    public record Overrides(
            @Schema(description = "runs per cell, 1..schedlab.sweeps.max-experiments (1000) and at most that many"
                    + " experiments per table (cells x repetitions); the seeds stay consecutive from the table's first seed",
                    minimum = "1", maximum = "1000") Integer repetitions,
            @Schema(description = "simulated seconds of every run (its durationSeconds), > 0 and at most"
                    + " schedlab.limits.max-duration-seconds (3600)", maximum = "3600")
            Double durationSeconds) {
    }

    /**
     * The definition with the overrides applied: {@code repetitions} n gives seeds first..first+n-1
     * (the command line's convention), {@code durationSeconds} is set in every variant. It builds n
     * seeds: callers check the overrides first ({@link #runDefinitions}).
     */
    static SweepDefinition withOverrides(SweepDefinition d, Overrides overrides) {
        List<Long> seeds = d.seeds();
        Integer repetitions = d.repetitions();
        if (overrides.repetitions() != null) {
            long first = seeds == null || seeds.isEmpty() ? 1 : seeds.get(0);
            repetitions = overrides.repetitions();
            seeds = repetitions < 1 ? null : LongStream.range(0, repetitions).map(r -> first + r).boxed().toList();
        }
        List<Axis> axes = d.axes();
        if (overrides.durationSeconds() != null) {
            axes = d.axes().stream().map(a -> new Axis(a.name(), a.pointer(), a.values(), a.variants().stream()
                    .map(v -> new Variant(v.name(), ((ObjectNode) v.patch().deepCopy())
                            .put("durationSeconds", overrides.durationSeconds())))
                    .toList())).toList();
        }
        return new SweepDefinition(d.name(), d.base(), axes, repetitions, d.seed(), d.metrics(), d.baseline(), seeds,
                d.published());
    }
}
