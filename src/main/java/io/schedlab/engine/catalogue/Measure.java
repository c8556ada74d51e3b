package io.schedlab.engine.catalogue;

import io.schedlab.engine.sweepgrid.SweepDefinition.Band;
import io.schedlab.engine.sweepgrid.SweepDefinition.Metric;

/**
 * One cell a run fills: row and column of the published table, the sweep metric that reads its
 * value from the result document (so scenarios depend only on the document's published shape),
 * the published number for comparison (null when the source gives none) and, where the source
 * gives its own run-to-run spread, the band from it (null: the table derives the band from the
 * published effect, {@link Bands#rule}).
 */
public record Measure(String row, String column, Metric metric, Double published, Band band) {

    /** A cell whose band, if it is published, follows from its published effect. */
    public Measure(String row, String column, Metric metric, Double published) {
        this(row, column, metric, published, null);
    }
}
