package io.schedlab.engine.catalogue;

import io.schedlab.engine.sweepgrid.SweepDefinition.Band;

/**
 * One scored cell: where it is (case, table, row, column), the simulated and published effect (or
 * value, as the band's {@code on} says), its band and whether it passes, the coefficient of
 * variation of the cell over its seeds (null with one seed), and the effect at 3x the run length
 * with whether the two agree within the seeds' spread (null when not run).
 */
public record CellScore(String caseId, int table, String row, String column, Double sim, Double published, Band band,
        boolean pass, Double cv, Double longSim, Boolean converged) {

    /** The line of the expectation file: case, table, row, column and pass or fail, tab-separated. */
    String expectationKey() {
        return caseId + "\t" + table + "\t" + row + "\t" + column;
    }
}
