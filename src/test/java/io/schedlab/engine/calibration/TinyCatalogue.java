package io.schedlab.engine.calibration;

import io.schedlab.engine.knobs.Knob;
import io.schedlab.engine.knobs.KnobSet;
import io.schedlab.engine.catalogue.Bands;
import io.schedlab.engine.catalogue.CaseScore;
import io.schedlab.engine.catalogue.CellScore;
import io.schedlab.engine.catalogue.ValidationCatalogue;
import io.schedlab.engine.sweepgrid.SweepDefinition.Band;
import java.util.ArrayList;
import java.util.List;

/**
 * A two-case catalogue without the engine: case A has one cell whose effect is the value of knob {@code a}
 * divided by its default, minus 1 (published +0.5, so it passes from about 1.375x to 1.625x); case B one cell
 * whose effect is 0.3 times the ratio of knob {@code b} (published +0.3). Knob {@code c} is read by no case.
 */
final class TinyCatalogue implements CatalogueScores {

    static final Knob A = knob("a", 100);
    static final Knob B = knob("b", 10);
    static final Knob C = knob("c", 1);

    int scorings;

    static Knob knob(String name, double def) {
        return new Knob(name, Knob.Where.COSTS, null, name, def, 0, 1e6, false, "ns", "test", List.of("Test"));
    }

    @Override
    public List<CaseScore> score(KnobSet knobs) {
        scorings++;
        List<CaseScore> out = new ArrayList<>();
        out.add(one("A", knobs.valueOf(A) / A.defaultValue() - 1, 0.5));
        out.add(one("B", 0.3 * knobs.valueOf(B) / B.defaultValue(), 0.3));
        return out;
    }

    @Override
    public List<String> casesReading(Knob knob) {
        return knob == A ? List.of("A") : knob == B ? List.of("B") : List.of();
    }

    private static CaseScore one(String id, double effect, double published) {
        Band band = Bands.rule(published, "test");
        boolean pass = effect >= band.low() && effect <= band.high();
        CellScore cell = new CellScore(id, 1, "row", "col", effect, published, band, pass, null, null, null);
        return new CaseScore(new ValidationCatalogue.Case(id, "case " + id, true, List.of(), List.of()), List.of(cell));
    }
}
