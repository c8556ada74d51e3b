package io.schedlab.engine.catalogue;

import io.schedlab.engine.sweepgrid.SweepDefinition.Band;
import java.util.Locale;

/**
 * Tolerance bands of published cells. Where the source gives its own spread the band is that
 * spread ({@link #spread}); otherwise the simulated effect (ratio - 1) must have the published
 * direction and a size within 25% of the published one, or, for a published effect under 5%
 * (too small for its direction to be told from run-to-run noise), lie within 2 points of it
 * ({@link #rule}). A cell in a table without a reference is held to its
 * value within 25% ({@link #value}). The 25% and 2 points are the catalogue's acceptance rule for
 * a mechanism's effect size (docs/fidelity.md, "Scorecard"), the same for every case.
 */
public final class Bands {

    /** Relative tolerance of an effect (or a value) of 5% or more. */
    public static final double RELATIVE = 0.25;
    /** Absolute tolerance, in effect units, of an effect under {@link #SMALL}. */
    public static final double POINTS = 0.02;
    /** Effects smaller than this are held to {@link #POINTS}. */
    public static final double SMALL = 0.05;

    private Bands() {
    }

    /** The rule band around a published effect; {@code source} names the published numbers. */
    public static Band rule(double publishedEffect, String source) {
        double e = publishedEffect;
        if (Math.abs(e) < SMALL) {
            return new Band("points", "effect", e - POINTS, e + POINTS, "published effect " + signed(e)
                    + ": within 2 points (" + source + ")");
        }
        double a = e * (1 - RELATIVE);
        double b = e * (1 + RELATIVE);
        return new Band("relative", "effect", Math.min(a, b), Math.max(a, b), "published effect " + signed(e)
                + ": same direction, size within 25% (" + source + ")");
    }

    /** A band from the source's own runs: the effects its runs span, from {@code low} to {@code high}. */
    public static Band spread(double low, double high, String source) {
        return new Band("spread", "effect", Math.min(low, high), Math.max(low, high), source);
    }

    /** A value within 25% of the published one, for a table without a reference. */
    public static Band value(double published, String source) {
        double a = published * (1 - RELATIVE);
        double b = published * (1 + RELATIVE);
        return new Band("relative", "value", Math.min(a, b), Math.max(a, b), "published value "
                + TablePrinter.num(published) + ": within 25% (" + source + ")");
    }

    static String signed(double effect) {
        return String.format(Locale.ROOT, "%+.3f", effect);
    }
}
