package io.schedlab.engine.calibration;

import io.schedlab.engine.knobs.Knob;
import io.schedlab.engine.knobs.KnobSet;
import io.schedlab.engine.catalogue.CaseScore;
import io.schedlab.engine.catalogue.CellScore;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What each knob moves: the catalogue scored with the knob at {@link #LOW} and {@link #HIGH} times its
 * default beside the defaults, the cells whose effect moved and by how much, and the cells passed and the
 * band distance ({@link BandDistance}) at each of the three values.
 */
public final class Sensitivity {

    /** The lower factor: half the default. */
    public static final double LOW = 0.5;
    /** The higher factor: twice the default. */
    public static final double HIGH = 2;
    /**
     * A cell that moved by less than this counts as unmoved: in effect units (ratio - 1), relative to the value
     * for a cell whose value exceeds 1 in size (a value band).
     */
    public static final double MOVED = 1e-3;

    /** A cell's simulated effect at half, the default and twice the knob (null: no value). */
    public record Move(String cell, Double low, Double base, Double high) {

        /** The larger change from the default at either end. */
        public double size() {
            return Math.max(change(low), change(high));
        }

        private double change(Double v) {
            if (v == null || base == null) {
                return v == null && base == null ? 0 : Double.POSITIVE_INFINITY;
            }
            return Math.abs(v - base) / Math.max(1, Math.abs(base));
        }
    }

    /** Passed cells and band distance at one knob value. */
    public record Point(double value, int passed, double distance) {
    }

    /** One knob: the cases that read it, the catalogue at its three values and the cells it moved, largest first. */
    public record Row(Knob knob, List<String> cases, Point low, Point base, Point high, List<Move> moves) {

        /** True when no case reads the knob or no cell moved. */
        public boolean movesNothing() {
            return moves.isEmpty();
        }
    }

    private Sensitivity() {
    }

    /** The sensitivity of each knob, around the catalogue at its defaults. */
    public static List<Row> of(List<Knob> knobs, CatalogueScores catalogue) {
        List<CaseScore> base = catalogue.score(KnobSet.DEFAULTS);
        List<Row> rows = new ArrayList<>();
        for (Knob k : knobs) {
            Point at = new Point(k.defaultValue(), BandDistance.passed(base), BandDistance.total(base));
            List<String> cases = catalogue.casesReading(k);
            if (cases.isEmpty()) {
                rows.add(new Row(k, cases, at, at, at, List.of()));
                continue;
            }
            double lowValue = k.scaled(LOW);
            double highValue = k.scaled(HIGH);
            List<CaseScore> low = catalogue.score(KnobSet.DEFAULTS.with(k, lowValue));
            List<CaseScore> high = catalogue.score(KnobSet.DEFAULTS.with(k, highValue));
            rows.add(new Row(k, cases, new Point(lowValue, BandDistance.passed(low), BandDistance.total(low)), at,
                    new Point(highValue, BandDistance.passed(high), BandDistance.total(high)), moves(low, base, high)));
        }
        return rows;
    }

    private static List<Move> moves(List<CaseScore> low, List<CaseScore> base, List<CaseScore> high) {
        Map<String, Double> lows = effects(low);
        Map<String, Double> highs = effects(high);
        List<Move> out = new ArrayList<>();
        effects(base).forEach((cell, b) -> {
            Move m = new Move(cell, lows.get(cell), b, highs.get(cell));
            if (m.size() >= MOVED) {
                out.add(m);
            }
        });
        out.sort(Comparator.comparingDouble(Move::size).reversed());
        return out;
    }

    /** Every scored cell's simulated effect by its name (case/table/row/column). */
    static Map<String, Double> effects(List<CaseScore> scores) {
        Map<String, Double> out = new LinkedHashMap<>();
        for (CaseScore s : scores) {
            for (CellScore c : s.cells()) {
                out.put(name(c), c.sim());
            }
        }
        return out;
    }

    /** A cell's name: case/table/row/column. */
    static String name(CellScore c) {
        return c.caseId() + "/" + c.table() + "/" + c.row() + "/" + c.column();
    }
}
