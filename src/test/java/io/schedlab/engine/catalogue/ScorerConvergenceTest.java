package io.schedlab.engine.catalogue;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The convergence check of the scorecard: two run lengths agree within the seeds' spread, or an effect to the printed decimals. */
class ScorerConvergenceTest {

    @Test
    void aDeterministicEffectThatMovesLessThanThePrintedDecimalsHasConverged() {
        // E2's static stand-in: CV 0 over seeds, share of the run -0.5034 at 1x and -0.5031 at 3x
        assertThat(Scorer.agree(-0.5034, -0.5031, 0, true)).isTrue();
        assertThat(Scorer.agree(-0.5034, -0.5024, 0, true)).as("a move the scorecard prints is a transient").isFalse();
    }

    @Test
    void theSeedsSpreadStillDecidesWhenItIsWider() {
        assertThat(Scorer.agree(0.10, 0.13, 0.04, true)).isTrue();
        assertThat(Scorer.agree(0.10, 0.15, 0.04, true)).isFalse();
    }

    @Test
    void aValueCellIsHeldToTheSpreadAlone() {
        // values are printed to three significant digits, not decimals: no floor
        assertThat(Scorer.agree(96.2, 96.2003, 0, false)).isFalse();
        assertThat(Scorer.agree(96.2, 96.3, 0.2, false)).isTrue();
    }
}
