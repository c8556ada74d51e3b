package io.schedlab.engine.catalogue;

import java.util.List;

/**
 * A catalogue case scored: its scored cells, the published cells no scenario fills (counted as
 * published and not passing) and its behaviour facts.
 */
public record CaseScore(ValidationCatalogue.Case entry, List<CellScore> cells) {

    public CaseScore {
        cells = List.copyOf(cells);
    }

    /** Cells inside their band. */
    public int passed() {
        return (int) cells.stream().filter(CellScore::pass).count();
    }

    /** Every published cell of the case: scored ones and those not modelled. */
    public int published() {
        return cells.size() + entry.unmodelled().size();
    }

    /** Scored cells whose effect moved beyond the seeds' spread between the run length and 3x. */
    public int unconverged() {
        return (int) cells.stream().filter(c -> Boolean.FALSE.equals(c.converged())).count();
    }
}
