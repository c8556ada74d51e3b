package io.schedlab.engine.cli;

import io.schedlab.engine.Engine;
import io.schedlab.engine.calibration.CalibrationReport;
import io.schedlab.engine.catalogue.BuiltInScenarios;
import io.schedlab.engine.catalogue.CaseScore;
import io.schedlab.engine.catalogue.FidelityReport;
import io.schedlab.engine.catalogue.Scenario;
import io.schedlab.engine.catalogue.ScenarioResult;
import io.schedlab.engine.catalogue.ScenarioRunner;
import io.schedlab.engine.catalogue.TablePrinter;
import io.schedlab.engine.spec.Limits;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code java -jar schedlab.jar scenario <E1..E5|all|list> [--quick] [--threads N] [--markdown FILE]}:
 * runs a built-in published experiment, from the sweep definitions the service serves
 * ({@link io.schedlab.engine.catalogue.ScenarioSweep}), through the engine on this machine and
 * prints its tables in the published shape,
 * with the published numbers and ratios beside. Progress lines go to {@code err}, tables to
 * {@code out}; {@code --markdown} also writes the fidelity document ({@link FidelityReport}) to FILE, keeping
 * the calibration section ({@link CalibrationReport}) FILE already has.
 */
public final class ScenarioCommand {

    static final String USAGE = "usage: scenario <" + String.join("|", BuiltInScenarios.IDS)
            + "|all|list> [--quick] [--threads N] [--markdown FILE] [--skip E4,..]\n"
            + "       scenario score [CASE|all] [--quick] [--threads N] [--expectations FILE]";
    /** Most threads --threads may ask for. */
    static final int MAX_THREADS = 256;

    static final String QUICK_WARNING = "note: --quick runs smaller sizes as a smoke run; its shape can differ from"
            + " the published one (compare shapes on full runs)";

    private ScenarioCommand() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs the command on the arguments after the word {@code scenario}; returns the process exit code. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        return run(args, out, err, Engine.standard());
    }

    static int run(String[] args, PrintStream out, PrintStream err, Engine engine) {
        boolean quick = false;
        int threads = 1;
        Path markdown = null;
        Path expectations = null;
        List<String> ids = new ArrayList<>();
        List<String> skip = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--markdown")) {
                if (i + 1 >= args.length) {
                    err.println("--markdown needs a file");
                    err.println(USAGE);
                    return 2;
                }
                markdown = Path.of(args[++i]);
            } else if (a.equals("--expectations")) {
                if (i + 1 >= args.length) {
                    err.println("--expectations needs a file");
                    err.println(USAGE);
                    return 2;
                }
                expectations = Path.of(args[++i]);
            } else if (a.equals("--threads")) {
                Integer n = i + 1 < args.length ? parseThreads(args[++i]) : null;
                if (n == null) {
                    err.println("--threads needs a whole number from 1 to " + MAX_THREADS);
                    err.println(USAGE);
                    return 2;
                }
                threads = n;
            } else if (a.equals("--skip")) {
                if (i + 1 >= args.length) {
                    err.println("--skip needs scenario ids (E4 or E1,E4)");
                    err.println(USAGE);
                    return 2;
                }
                skip.addAll(List.of(args[++i].toUpperCase(java.util.Locale.ROOT).split(",")));
            } else if (a.equals("--help") || a.equals("-h")) {
                out.println(Cli.SCENARIO_USAGE);
                return 0;
            } else if (a.equals("--quick")) {
                quick = true;
            } else if (a.startsWith("-")) {
                err.println("unknown option " + a);
                err.println(USAGE);
                return 2;
            } else {
                ids.add(a);
            }
        }
        if (!ids.isEmpty() && ids.get(0).equalsIgnoreCase("score") && ids.size() <= 2) {
            return ScoreCommand.run(ids.size() == 2 ? ids.get(1) : "all", quick, threads, expectations, out, err,
                    engine);
        }
        if (ids.size() != 1 || expectations != null) {
            err.println(USAGE);
            return 2;
        }
        String id = ids.get(0);
        if (id.equalsIgnoreCase("list")) {
            for (Scenario s : BuiltInScenarios.all(true)) {
                out.println(s.id() + "  " + s.title());
            }
            return 0;
        }
        List<Scenario> scenarios = new ArrayList<>();
        List<Scenario> skipped = new ArrayList<>();
        if (id.equalsIgnoreCase("all")) {
            for (Scenario s : BuiltInScenarios.all(quick)) {
                (skip.contains(s.id()) ? skipped : scenarios).add(s);
            }
        } else {
            Optional<Scenario> s = BuiltInScenarios.byId(id, quick);
            if (s.isEmpty()) {
                err.println("unknown scenario '" + id + "'; known: " + String.join(", ", BuiltInScenarios.IDS));
                return 2;
            }
            scenarios.add(s.get());
        }
        if (quick) {
            err.println(QUICK_WARNING);
        }
        ScenarioRunner runner = ScenarioRunner.of(engine, Limits.defaults(), threads);
        List<ScenarioResult> results = new ArrayList<>();
        long started = System.nanoTime();
        for (Scenario s : scenarios) {
            ScenarioResult result = runner.run(s, line -> err.println("[" + s.id() + "] " + line));
            out.println(TablePrinter.print(result));
            results.add(result);
        }
        if (markdown != null) {
            long tablesDone = System.nanoTime();
            List<CaseScore> scores = id.equalsIgnoreCase("all")
                    ? ScoreCommand.scores("all", quick, runner, engine, err) : List.of();
            String wallTime = String.format(java.util.Locale.ROOT, "Wall time of this generation on %d thread(s):"
                    + " %.0f s for the tables, %.0f s for the scorecard (%d processors available).", threads,
                    (tablesDone - started) / 1e9, (System.nanoTime() - tablesDone) / 1e9,
                    Runtime.getRuntime().availableProcessors());
            try {
                String doc = FidelityReport.markdown(results, skipped, scores, quick, engine.registry(), wallTime);
                String calibration = Files.exists(markdown) ? CalibrationReport.section(Files.readString(markdown))
                        : null;
                Files.writeString(markdown, calibration == null ? doc : CalibrationReport.replaceSection(doc,
                        calibration));
            } catch (IOException e) {
                err.println("cannot write " + markdown + ": " + e.getMessage());
                return 1;
            }
            err.println("wrote " + markdown);
        }
        return 0;
    }

    private static Integer parseThreads(String text) {
        try {
            int n = Integer.parseInt(text);
            return n >= 1 && n <= MAX_THREADS ? n : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
