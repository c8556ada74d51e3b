package io.schedlab.engine.calibration;

import io.schedlab.engine.knobs.Knob;
import io.schedlab.engine.knobs.KnobSet;
import io.schedlab.engine.catalogue.CaseScore;
import java.util.List;

/** Scores the catalogue's cases with the given knob values. */
public interface CatalogueScores {

    /** The scores of every case, in catalogue order, when the runs take these knob values. */
    List<CaseScore> score(KnobSet knobs);

    /** The ids of the cases whose experiments read this knob (leave its value out); empty when none does. */
    List<String> casesReading(Knob knob);
}
