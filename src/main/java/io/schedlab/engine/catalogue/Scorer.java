package io.schedlab.engine.catalogue;

import io.schedlab.engine.registry.Registry;
import io.schedlab.engine.catalogue.ScenarioResult.Cell;
import io.schedlab.engine.catalogue.ScenarioResult.TableResult;
import io.schedlab.engine.catalogue.ScenarioTable.RatioReference;
import io.schedlab.engine.sweepgrid.SweepDefinition.Band;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Scores catalogue cases: runs the tables of a case's scenario that have scored cells (cells with
 * a band), at full size with at least {@link #MIN_SEEDS} seeds and again at {@link #LONG_FACTOR}
 * times the run length ({@link RunLength}), and checks each cell against its band. A cell has
 * converged when its effect at both lengths agrees within the seeds' spread: the difference is at
 * most the sum of the two effects' standard deviations (each propagated from the cell's and the
 * reference cell's coefficients of variation), or an effect's is below the three decimals the
 * scorecard prints ({@link #EFFECT_RESOLUTION}). At quick size a case runs once, with its own seeds,
 * and convergence is not checked.
 */
public final class Scorer {

    /** Seeds per cell for the spread (a table's own repeats when more). */
    public static final int MIN_SEEDS = 3;
    /** The longer run of the convergence check, as a multiple of the run length. */
    public static final int LONG_FACTOR = 3;

    private final ScenarioRunner runner;
    private final Registry registry;
    private final boolean quick;

    public Scorer(ScenarioRunner runner, Registry registry, boolean quick) {
        this.runner = runner;
        this.registry = registry;
        this.quick = quick;
    }

    /** Scores one case (a case without a scenario has only its not-modelled cells). */
    public CaseScore score(ValidationCatalogue.Case entry, Consumer<String> progress) {
        if (!entry.scenario()) {
            return new CaseScore(entry, List.of());
        }
        Scenario scored = scoredTables(BuiltInScenarios.byId(entry.id(), quick).orElseThrow());
        if (scored.tables().isEmpty()) {
            return new CaseScore(entry, List.of());
        }
        ScenarioResult base = runner.run(scored, progress);
        ScenarioResult longer = quick ? null
                : runner.run(RunLength.scaled(scored, LONG_FACTOR, registry), line -> progress.accept("3x: " + line));
        List<CellScore> cells = new ArrayList<>();
        for (int t = 0; t < base.tables().size(); t++) {
            TableResult table = base.tables().get(t);
            TableResult longTable = longer == null ? null : longer.tables().get(t);
            int index = originalIndex(entry.id(), table.table());
            for (String row : table.table().rows()) {
                for (String column : table.table().columns()) {
                    Cell cell = table.cell(row, column);
                    if (cell != null && cell.scored()) {
                        cells.add(cellScore(entry.id(), index, table, longTable, row, column));
                    }
                }
            }
        }
        return new CaseScore(entry, cells);
    }

    private CellScore cellScore(String id, int index, TableResult table, TableResult longTable, String row,
            String column) {
        Cell cell = table.cell(row, column);
        Band band = cell.band();
        boolean onValue = band.on().equals("value");
        Double sim = quantity(cell, onValue);
        Double published = onValue ? cell.published()
                : cell.publishedRatio() == null ? null : cell.publishedRatio() - 1;
        Double cv = cell.n() > 1 && cell.mean() != 0 ? cell.stddev() / Math.abs(cell.mean()) : null;
        Double longSim = null;
        Boolean converged = null;
        if (longTable != null && sim != null) {
            Cell longCell = longTable.cell(row, column);
            longSim = longCell == null ? null : quantity(longCell, onValue);
            if (longSim != null) {
                double spread = spread(table, row, column, onValue) + spread(longTable, row, column, onValue);
                converged = agree(sim, longSim, spread, !onValue);
            }
        }
        return new CellScore(id, index, row, column, sim, published, band, cell.passes(), cv, longSim, converged);
    }

    /**
     * The scorecard prints effects to three decimals (Scorecard): two lengths whose effects differ by less
     * than half of that last digit agree as far as the scorecard can show, even where the seeds give no
     * spread (a deterministic cell, CV 0, whose last slice ends a hair later at another length).
     */
    static final double EFFECT_RESOLUTION = 0.0005;

    /**
     * Whether a cell's quantity at the two lengths agrees: within the seeds' spread or, for an effect, below
     * {@link #EFFECT_RESOLUTION}.
     */
    static boolean agree(double base, double longer, double spread, boolean effect) {
        double tolerance = effect ? Math.max(spread, EFFECT_RESOLUTION) : spread;
        return Math.abs(longer - base) <= tolerance + 1e-12;
    }

    private static Double quantity(Cell cell, boolean onValue) {
        if (!cell.measured()) {
            return null;
        }
        return onValue ? Double.valueOf(cell.mean()) : cell.ratio() == null ? null : cell.ratio() - 1;
    }

    /** The standard deviation of the cell's effect (or value): propagated from its and the reference's CVs. */
    private static double spread(TableResult t, String row, String column, boolean onValue) {
        Cell cell = t.cell(row, column);
        if (onValue) {
            return cell.stddev();
        }
        RatioReference ref = t.table().ratioTo();
        Cell refCell = t.cell(ref.column() ? row : ref.name(), ref.column() ? ref.name() : column);
        double a = cv(cell);
        double b = cv(refCell);
        return cell.ratio() == null ? 0 : Math.abs(cell.ratio()) * Math.sqrt(a * a + b * b);
    }

    private static double cv(Cell c) {
        return c == null || c.n() < 2 || c.mean() == 0 ? 0 : c.stddev() / Math.abs(c.mean());
    }

    /** The scenario's tables that have a scored cell, with at least {@link #MIN_SEEDS} seeds at full size. */
    private Scenario scoredTables(Scenario s) {
        List<ScenarioTable> tables = new ArrayList<>();
        for (ScenarioTable t : s.tables()) {
            boolean scored = t.runs().stream().flatMap(r -> r.measures().stream())
                    .anyMatch(m -> ScenarioSweep.band(t, m, s.title()) != null);
            if (!scored) {
                continue;
            }
            List<ScenarioRun> runs = t.runs().stream().map(r -> quick || r.repeats() >= MIN_SEEDS ? r
                    : new ScenarioRun(r.label(), r.spec(), MIN_SEEDS, r.measures(), r.note())).toList();
            tables.add(t.withRuns(runs));
        }
        return new Scenario(s.id(), s.title(), s.setup(), s.expectedShape(), tables);
    }

    /** The table's number (1-based) in the scenario as defined, found by its caption. */
    private int originalIndex(String id, ScenarioTable table) {
        List<ScenarioTable> all = BuiltInScenarios.byId(id, quick).orElseThrow().tables();
        for (int i = 0; i < all.size(); i++) {
            if (all.get(i).caption().equals(table.caption())) {
                return i + 1;
            }
        }
        return 0;
    }
}
