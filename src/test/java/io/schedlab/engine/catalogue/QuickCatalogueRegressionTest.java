package io.schedlab.engine.catalogue;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.Engine;
import io.schedlab.engine.spec.Limits;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The quick catalogue against its committed expectations (src/test/resources/validation/
 * quick-expectations.tsv, written by {@link Scorecard#EXPECTATIONS_COMMAND}): every cell that
 * passed its band at the last regeneration must still pass. A model change that makes a cell pass
 * is welcome (regenerate the file to hold it there); one that makes a passing cell fail is not.
 */
class QuickCatalogueRegressionTest {

    private static final String FILE = "/validation/quick-expectations.tsv";

    @Test
    void everyCellThatPassedAtTheLastRegenerationStillPasses() throws IOException {
        Map<String, Boolean> expected = Scorecard.parseExpectations(read());
        assertThat(expected).as("the expectation file lists the scored cells").isNotEmpty();
        assertThat(expected.values()).as("and some of them pass").contains(true);

        Engine engine = Engine.standard();
        Scorer scorer = new Scorer(ScenarioRunner.of(engine, Limits.defaults(), 2), engine.registry(), true);
        List<CaseScore> now = new ArrayList<>();
        for (ValidationCatalogue.Case c : ValidationCatalogue.cases()) {
            now.add(scorer.score(c, line -> { }));
        }

        assertThat(Scorecard.regressions(expected, now)).as("cells that passed and fail now (or are gone)").isEmpty();
    }

    private static String read() throws IOException {
        try (InputStream in = QuickCatalogueRegressionTest.class.getResourceAsStream(FILE)) {
            assertThat(in).as(FILE + " is committed (" + Scorecard.EXPECTATIONS_COMMAND + ")").isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
