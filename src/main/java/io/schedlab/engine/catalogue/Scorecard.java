package io.schedlab.engine.catalogue;

import io.schedlab.engine.sweepgrid.SweepDefinition.Band;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The validation scorecard in Markdown (printed by {@code scenario score}, and the opening of
 * docs/fidelity.md): per case the cells passed out of its published cells, every scored cell with
 * the simulated and published effect side by side, its band, the seeds' coefficient of variation
 * and the convergence check, then the cells not modelled and the behaviour facts; and the total.
 * Also the expectation file of the quick catalogue ({@link #expectations}, {@link #parseExpectations}).
 */
public final class Scorecard {

    /** The command that regenerates the quick catalogue's expectation file. */
    public static final String EXPECTATIONS_COMMAND = "java -jar target/schedlab-*.jar scenario score all --quick"
            + " --expectations src/test/resources/validation/quick-expectations.tsv";

    private Scorecard() {
    }

    /** The scorecard of these cases ({@code quick}: smoke sizes, marked as such). */
    public static String markdown(List<CaseScore> scores, boolean quick) {
        StringBuilder out = new StringBuilder();
        out.append("## Scorecard\n\n");
        out.append(quick ? "QUICK sizes, one run per cell as each scenario defines it; no convergence check.\n\n"
                : "Full size; every scored table runs with at least " + Scorer.MIN_SEEDS + " seeds, and again at "
                        + Scorer.LONG_FACTOR + "x its run length.\n\n");
        out.append("A published cell passes when the simulated effect (ratio - 1 against the table's reference; a"
                + " cell's value in a table without one) lies in its band: the source's own spread where it gives"
                + " one, else the published direction and an effect within 25%, or within 2 points for effects"
                + " under 5%. A reference cell is not scored (its effect is 0 by definition). Cells that need a"
                + " mechanism the model lacks count as published and not passing. `CV` is the cell's standard"
                + " deviation over its seeds / its mean; `3x` the effect at three times the run length;"
                + " `converged` says whether the two lengths agree within the seeds' spread, or an effect to"
                + " the three decimals printed (`NO` flags a transient).\n\n");
        out.append("| case | passed / published | not modelled | not converged |\n|---|---:|---:|---:|\n");
        int passed = 0;
        int published = 0;
        for (CaseScore s : scores) {
            out.append("| ").append(s.entry().id()).append(" ").append(s.entry().title().replace("|", "/"))
                    .append(" | ").append(s.passed()).append(" / ").append(s.published()).append(" | ")
                    .append(s.entry().unmodelled().size()).append(" | ").append(quick ? "-" : s.unconverged())
                    .append(" |\n");
            passed += s.passed();
            published += s.published();
        }
        out.append(String.format(Locale.ROOT, "| **total** | **%d / %d (%s)** | | |%n", passed, published,
                published == 0 ? "-" : String.format(Locale.ROOT, "%.0f%%", 100.0 * passed / published)));
        cells(scores, quick, out);
        unmodelled(scores, out);
        facts(scores, out);
        return out.toString();
    }

    private static void cells(List<CaseScore> scores, boolean quick, StringBuilder out) {
        out.append("\n### Scored cells\n\n| case | table | row | column | sim | published | band | pass | CV | 3x"
                + " | converged |\n|---|---:|---|---|---:|---:|---|---|---:|---:|---|\n");
        for (CaseScore s : scores) {
            for (CellScore c : s.cells()) {
                Band b = c.band();
                out.append("| ").append(c.caseId()).append(" | ").append(c.table()).append(" | ").append(c.row())
                        .append(" | ").append(c.column()).append(" | ").append(num(c.sim(), b)).append(" | ")
                        .append(num(c.published(), b)).append(" | ").append(band(b)).append(" | ")
                        .append(c.pass() ? "pass" : "FAIL").append(" | ")
                        .append(c.cv() == null ? "-" : String.format(Locale.ROOT, "%.3f", c.cv())).append(" | ")
                        .append(quick ? "-" : num(c.longSim(), b)).append(" | ")
                        .append(c.converged() == null ? "-" : c.converged() ? "yes" : "NO").append(" |\n");
            }
        }
    }

    private static void unmodelled(List<CaseScore> scores, StringBuilder out) {
        out.append("\n### Published cells not modelled (not passing)\n\n| case | cell | published | not modelled:"
                + " needs |\n|---|---|---|---|\n");
        for (CaseScore s : scores) {
            for (ValidationCatalogue.UnmodelledCell u : s.entry().unmodelled()) {
                out.append("| ").append(s.entry().id()).append(" | ").append(u.cell()).append(" | ")
                        .append(u.published()).append(" | ").append(u.needs()).append(" |\n");
            }
        }
    }

    private static void facts(List<CaseScore> scores, StringBuilder out) {
        out.append("\n### Behaviour facts (exact rules of a policy, checked by unit tests, not scored)\n\n"
                + "| case | fact | status |\n|---|---|---|\n");
        for (CaseScore s : scores) {
            for (ValidationCatalogue.Fact f : s.entry().facts()) {
                out.append("| ").append(s.entry().id()).append(" | ").append(f.fact()).append(" | ")
                        .append(f.status()).append(" |\n");
            }
        }
    }

    private static String band(Band b) {
        return b.kind() + " " + num(b.low(), b) + " .. " + num(b.high(), b) + (b.on().equals("value") ? " (value)" : "");
    }

    private static String num(Double v, Band b) {
        if (v == null) {
            return "n/a";
        }
        return b.on().equals("value") ? TablePrinter.num(v) : String.format(Locale.ROOT, "%+.3f", v);
    }

    /** The expectation file: one line per scored cell, case, table, row, column and pass or fail, tab-separated. */
    public static String expectations(List<CaseScore> scores) {
        StringBuilder out = new StringBuilder("# quick catalogue: cells and whether they passed; regenerate with "
                + EXPECTATIONS_COMMAND + "\n");
        for (CaseScore s : scores) {
            for (CellScore c : s.cells()) {
                out.append(c.expectationKey()).append('\t').append(c.pass() ? "pass" : "fail").append('\n');
            }
        }
        return out.toString();
    }

    /** Parses an expectation file: key (case, table, row, column) -> passed. */
    public static Map<String, Boolean> parseExpectations(String text) {
        Map<String, Boolean> out = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int tab = line.lastIndexOf('\t');
            out.put(line.substring(0, tab), line.substring(tab + 1).trim().equals("pass"));
        }
        return out;
    }

    /** Keys of cells that passed in {@code expected} and do not pass in {@code now}, or are missing now. */
    public static List<String> regressions(Map<String, Boolean> expected, List<CaseScore> now) {
        Map<String, Boolean> current = new LinkedHashMap<>();
        now.forEach(s -> s.cells().forEach(c -> current.put(c.expectationKey(), c.pass())));
        List<String> out = new ArrayList<>();
        expected.forEach((key, passed) -> {
            if (passed && !Boolean.TRUE.equals(current.get(key))) {
                out.add(key.replace('\t', '/'));
            }
        });
        return out;
    }
}
