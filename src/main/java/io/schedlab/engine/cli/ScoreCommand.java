package io.schedlab.engine.cli;

import io.schedlab.engine.Engine;
import io.schedlab.engine.catalogue.CaseScore;
import io.schedlab.engine.catalogue.ScenarioRunner;
import io.schedlab.engine.catalogue.Scorecard;
import io.schedlab.engine.catalogue.Scorer;
import io.schedlab.engine.catalogue.ValidationCatalogue;
import io.schedlab.engine.spec.Limits;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code scenario score [CASE|all] [--quick] [--threads N] [--expectations FILE]}: scores catalogue
 * cases ({@link Scorer}) and prints the scorecard ({@link Scorecard}); {@code --expectations}
 * also writes which cells passed, the file the test suite compares the quick catalogue with.
 */
final class ScoreCommand {

    private ScoreCommand() {
    }

    static int run(String name, boolean quick, int threads, Path expectations, PrintStream out, PrintStream err,
            Engine engine) {
        if (!name.equalsIgnoreCase("all") && ValidationCatalogue.byId(name).isEmpty()) {
            err.println("unknown case '" + name + "'; known: "
                    + String.join(", ", ValidationCatalogue.cases().stream().map(ValidationCatalogue.Case::id).toList()));
            return 2;
        }
        ScenarioRunner runner = ScenarioRunner.of(engine, Limits.defaults(), threads);
        List<CaseScore> scores = scores(name, quick, runner, engine, err);
        out.println(Scorecard.markdown(scores, quick));
        if (expectations != null) {
            try {
                Files.writeString(expectations, Scorecard.expectations(scores));
            } catch (IOException e) {
                err.println("cannot write " + expectations + ": " + e.getMessage());
                return 1;
            }
            err.println("wrote " + expectations);
        }
        return 0;
    }

    /** Scores the named case, or every case for "all". */
    static List<CaseScore> scores(String name, boolean quick, ScenarioRunner runner, Engine engine, PrintStream err) {
        Scorer scorer = new Scorer(runner, engine.registry(), quick);
        List<ValidationCatalogue.Case> cases = new ArrayList<>();
        if (name.equalsIgnoreCase("all")) {
            cases.addAll(ValidationCatalogue.cases());
        } else {
            Optional<ValidationCatalogue.Case> c = ValidationCatalogue.byId(name);
            c.ifPresent(cases::add);
        }
        List<CaseScore> scores = new ArrayList<>();
        for (ValidationCatalogue.Case c : cases) {
            scores.add(scorer.score(c, line -> err.println("[score " + c.id() + "] " + line)));
        }
        return scores;
    }
}
