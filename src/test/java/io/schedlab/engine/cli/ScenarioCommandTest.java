package io.schedlab.engine.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ScenarioCommandTest {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return ScenarioCommand.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void listNamesEveryScenario() {
        assertThat(run("list")).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("E1", "E2", "E3", "E4", "E5", "seed 004");
    }

    @Test
    void unknownScenarioOrOptionIsAClearError() {
        assertThat(run("E9")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("unknown scenario 'E9'; known: E1, E2, E3, E4, E5");
        assertThat(run("E5", "--fast")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("unknown option --fast", "usage: scenario");
        assertThat(run()).isEqualTo(2);
    }
}
