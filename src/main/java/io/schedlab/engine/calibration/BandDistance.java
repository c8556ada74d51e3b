package io.schedlab.engine.calibration;

import io.schedlab.engine.catalogue.CaseScore;
import io.schedlab.engine.catalogue.CellScore;
import io.schedlab.engine.sweepgrid.SweepDefinition.Band;
import java.util.List;

/**
 * How far a scored cell lies from its band, in half-widths of the band: 0 inside it, (low - sim) / half-width
 * below it (negative), (sim - high) / half-width above it. Measuring in half-widths holds every cell to its own
 * acceptance rule ({@link io.schedlab.engine.catalogue.Bands}: 25% of the published effect, 2 points, or the
 * source's spread), so no cell counts more for being large. The objective of a fit is the sum of squares.
 */
public final class BandDistance {

    /**
     * Residual of a cell with no simulated value (the run failed or measured nothing): as far as a cell ten
     * half-widths out, so a fit never prefers losing a cell to missing it.
     */
    public static final double MISSING = 10;

    private BandDistance() {
    }

    /** The signed residual of one cell. */
    public static double residual(CellScore cell) {
        if (cell.sim() == null || cell.sim().isNaN()) {
            return MISSING;
        }
        Band b = cell.band();
        double half = Math.max((b.high() - b.low()) / 2, 1e-12);
        double sim = cell.sim();
        if (sim < b.low()) {
            return (sim - b.low()) / half;
        }
        if (sim > b.high()) {
            return (sim - b.high()) / half;
        }
        return 0;
    }

    /** The sum of squared residuals over every scored cell of these cases. */
    public static double total(List<CaseScore> scores) {
        double sum = 0;
        for (CaseScore s : scores) {
            for (CellScore c : s.cells()) {
                double r = residual(c);
                sum += r * r;
            }
        }
        return sum;
    }

    /** Cells inside their band. */
    public static int passed(List<CaseScore> scores) {
        return scores.stream().mapToInt(CaseScore::passed).sum();
    }
}
