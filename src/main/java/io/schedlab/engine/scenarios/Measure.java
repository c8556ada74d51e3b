package io.schedlab.engine.scenarios;

import io.schedlab.engine.sweeps.SweepDefinition.Metric;

/**
 * One cell a run fills: row and column of the published table, the sweep metric that reads its
 * value from the result document (so scenarios depend only on the document's published shape),
 * and the published number for comparison (null when the source gives none).
 */
public record Measure(String row, String column, Metric metric, Double published) {
}
