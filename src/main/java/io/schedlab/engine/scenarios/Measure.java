package io.schedlab.engine.scenarios;

import java.util.function.Function;
import tools.jackson.databind.JsonNode;

/**
 * One cell a run fills: row and column of the published table, how to read the value from the
 * result document (as a JSON tree, so scenarios depend only on the document's published shape;
 * null when absent), and the published number for comparison (null when the source gives none).
 */
public record Measure(String row, String column, Function<JsonNode, Double> extract, Double published) {
}
