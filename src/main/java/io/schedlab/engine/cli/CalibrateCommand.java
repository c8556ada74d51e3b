package io.schedlab.engine.cli;

import io.schedlab.engine.Engine;
import io.schedlab.engine.calibration.CalibrationReport;
import io.schedlab.engine.calibration.KnobFit;
import io.schedlab.engine.calibration.QuickCatalogue;
import io.schedlab.engine.calibration.Sensitivity;
import io.schedlab.engine.knobs.Knob;
import io.schedlab.engine.knobs.KnobRegistry;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code calibrate [--knobs A,B] [--cases E1,E5] [--evaluations N] [--no-fit] [--no-sensitivity] [--threads N]
 * [--markdown FILE]}: halves and doubles each calibration knob over the quick catalogue ({@link Sensitivity}),
 * then fits the knobs together ({@link KnobFit}) and prints the fitted values with every cell's residual. It
 * changes no default; {@code --markdown} writes the sensitivity section into FILE (docs/fidelity.md).
 */
final class CalibrateCommand {

    static final String USAGE = """
            usage: schedlab calibrate [--knobs A,B] [--cases E1,E5] [--evaluations N] [--no-fit] [--no-sensitivity]
                                      [--threads N] [--markdown FILE]
              --knobs A,B     only these knobs (names as docs/fidelity.md lists them; default every knob)
              --cases E1,E5   only these catalogue cases (default all)
              --evaluations N at most N scorings of the catalogue for the fit (default 40, 1..10000; BOBYQA
                              needs at least 2 x knobs + 3)
              --no-fit        only the sensitivity table
              --no-sensitivity  only the fit
              --threads N     run N experiments at once (default 1)
              --markdown F    write the sensitivity section into F (replacing it there), e.g. docs/fidelity.md
              --help          print this help""";
    /** Most evaluations --evaluations may ask for. */
    static final int MAX_EVALUATIONS = 10_000;
    static final int DEFAULT_EVALUATIONS = 40;

    private CalibrateCommand() {
    }

    static int run(String[] args, PrintStream out, PrintStream err, Engine engine) {
        KnobRegistry registry = KnobRegistry.of(engine.registry());
        List<Knob> knobs = new ArrayList<>(registry.knobs());
        List<String> cases = List.of();
        int evaluations = DEFAULT_EVALUATIONS;
        int threads = 1;
        boolean fit = true;
        boolean sensitivity = true;
        Path markdown = null;
        for (int i = 1; i < args.length; i++) {
            String a = args[i];
            String next = i + 1 < args.length ? args[i + 1] : null;
            switch (a) {
                case "--knobs" -> {
                    knobs = List.of(require(next, a).split(",")).stream().map(String::trim).map(registry::require)
                            .toList();
                    i++;
                }
                case "--cases" -> {
                    cases = List.of(require(next, a).toUpperCase(Locale.ROOT).split(","));
                    i++;
                }
                case "--evaluations" -> {
                    evaluations = number(next, a, MAX_EVALUATIONS);
                    i++;
                }
                case "--threads" -> {
                    threads = number(next, a, ScenarioCommand.MAX_THREADS);
                    i++;
                }
                case "--markdown" -> {
                    markdown = Path.of(require(next, a));
                    i++;
                }
                case "--no-fit" -> fit = false;
                case "--no-sensitivity" -> sensitivity = false;
                default -> throw new IllegalArgumentException("unknown option " + a);
            }
        }
        QuickCatalogue catalogue = new QuickCatalogue(engine, threads, cases, err::println);
        long started = System.nanoTime();
        catalogue.score(io.schedlab.engine.knobs.KnobSet.DEFAULTS);
        double onceSeconds = (System.nanoTime() - started) / 1e9;
        err.printf(Locale.ROOT, "quick catalogue at the defaults: %.0f s on %d thread(s)%n", onceSeconds, threads);
        if (sensitivity) {
            long t0 = System.nanoTime();
            List<Sensitivity.Row> rows = Sensitivity.of(knobs, catalogue);
            String wall = String.format(Locale.ROOT, "Wall time of this generation on %d thread(s): %.0f s for the"
                    + " catalogue at the defaults, %.0f s for %d knobs (%d case scorings; a case whose experiments"
                    + " do not read a knob reuses its score at the defaults).", threads, onceSeconds,
                    (System.nanoTime() - t0) / 1e9, knobs.size(), catalogue.caseRuns());
            String section = CalibrationReport.sensitivity(rows, wall);
            out.println(section);
            if (markdown != null) {
                try {
                    String doc = Files.exists(markdown) ? Files.readString(markdown) : "";
                    Files.writeString(markdown, CalibrationReport.replaceSection(doc, section));
                } catch (IOException e) {
                    err.println("cannot write " + markdown + ": " + e.getMessage());
                    return 1;
                }
                err.println("wrote " + markdown);
            }
        }
        if (fit) {
            List<Knob> fitted = knobs.stream().filter(k -> k.defaultValue() > 0)
                    .filter(k -> !catalogue.casesReading(k).isEmpty()).toList();
            knobs.stream().filter(k -> !fitted.contains(k)).forEach(k -> err.println("not fitted: " + k.name()
                    + (k.defaultValue() > 0 ? " (no case reads it)" : " (default 0 does not scale)")));
            if (fitted.isEmpty()) {
                err.println("no knob to fit");
                return 0;
            }
            long t0 = System.nanoTime();
            KnobFit.Fit result = KnobFit.fit(fitted, catalogue, evaluations);
            out.println(CalibrationReport.fit(fitted, result));
            err.printf(Locale.ROOT, "fit: %.0f s%n", (System.nanoTime() - t0) / 1e9);
        }
        return 0;
    }

    private static String require(String value, String option) {
        if (value == null) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return value;
    }

    private static int number(String value, String option, int max) {
        try {
            int n = Integer.parseInt(require(value, option));
            if (n >= 1 && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // fall through to the message
        }
        throw new IllegalArgumentException(option + " needs a whole number from 1 to " + max);
    }
}
