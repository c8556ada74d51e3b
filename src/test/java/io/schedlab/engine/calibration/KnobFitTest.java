package io.schedlab.engine.calibration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.schedlab.engine.knobs.Knob;
import java.util.List;
import org.junit.jupiter.api.Test;

class KnobFitTest {

    private static final Knob X = TinyCatalogue.knob("x", 100);
    private static final Knob Y = TinyCatalogue.knob("y", 10);

    @Test
    void bobyqaFindsTheMinimumOfASmoothObjectiveOverTwoKnobs() {
        // minimum at x = 150 (1.5x), y = 5 (0.5x)
        KnobFit.Optimum o = KnobFit.minimise(List.of(X, Y), k -> Math.pow(k.valueOf(X) / 150 - 1, 2)
                + Math.pow(k.valueOf(Y) / 5 - 1, 2), 200);
        assertThat(o.knobs().valueOf(X)).isCloseTo(150, within(1.0));
        assertThat(o.knobs().valueOf(Y)).isCloseTo(5, within(0.05));
        assertThat(o.objective()).isLessThan(1e-3);
        assertThat(o.atDefaults()).isCloseTo(Math.pow(100.0 / 150 - 1, 2) + 1, within(1e-12));
        assertThat(o.evaluations()).isLessThanOrEqualTo(200);
    }

    @Test
    void aSingleKnobIsFittedAndTheSearchStaysInsideFourTimesItsDefault() {
        KnobFit.Optimum o = KnobFit.minimise(List.of(X), k -> Math.abs(k.valueOf(X) - 1_000), 100);
        assertThat(o.knobs().valueOf(X)).isCloseTo(400, within(1.0));
    }

    @Test
    void theBudgetBoundsTheEvaluationsAndTheBestPointSeenIsKept() {
        int[] calls = {0};
        KnobFit.Optimum o = KnobFit.minimise(List.of(X, Y), k -> {
            calls[0]++;
            return Math.pow(k.valueOf(X) / 150 - 1, 2) + Math.pow(k.valueOf(Y) / 5 - 1, 2);
        }, 8);
        assertThat(calls[0]).isEqualTo(o.evaluations()).isLessThanOrEqualTo(8);
        assertThat(o.objective()).isLessThan(o.atDefaults());
    }

    @Test
    void theCatalogueFitMovesTheKnobsIntoTheirBands() {
        TinyCatalogue catalogue = new TinyCatalogue();
        KnobFit.Fit fit = KnobFit.fit(List.of(TinyCatalogue.A, TinyCatalogue.B), catalogue, 60);
        assertThat(BandDistance.passed(fit.before())).isEqualTo(1);
        assertThat(BandDistance.passed(fit.after())).isEqualTo(2);
        assertThat(fit.optimum().objective()).isZero();
        double a = fit.optimum().knobs().valueOf(TinyCatalogue.A);
        assertThat(a).isBetween(137.5, 162.5);
        assertThat(CalibrationReport.fit(List.of(TinyCatalogue.A, TinyCatalogue.B), fit))
                .contains("| A/1/row/col | +0.500 | +0.375 .. +0.625 | +0.000 | -3.000 |");
    }

    @Test
    void aKnobWithDefaultZeroCannotBeScaled() {
        Knob zero = TinyCatalogue.knob("z", 0);
        assertThatThrownBy(() -> KnobFit.minimise(List.of(zero), k -> 0, 10))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("default 0");
    }
}
