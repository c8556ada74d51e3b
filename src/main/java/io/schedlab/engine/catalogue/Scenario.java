package io.schedlab.engine.catalogue;

import java.util.List;

/**
 * A built-in published experiment (experiments.md E1..E5) as a sweep: an id, a title naming the
 * source, the set-up in a few lines, the expected shape of the result, and one or more tables.
 */
public record Scenario(String id, String title, List<String> setup, String expectedShape, List<ScenarioTable> tables) {

    public Scenario {
        setup = List.copyOf(setup);
        tables = List.copyOf(tables);
    }
}
