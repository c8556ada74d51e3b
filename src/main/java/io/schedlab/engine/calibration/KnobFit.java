package io.schedlab.engine.calibration;

import io.schedlab.engine.knobs.Knob;
import io.schedlab.engine.knobs.KnobSet;
import io.schedlab.engine.catalogue.CaseScore;
import java.util.List;
import java.util.function.ToDoubleFunction;
import org.apache.commons.math3.exception.TooManyEvaluationsException;
import org.apache.commons.math3.optim.InitialGuess;
import org.apache.commons.math3.optim.MaxEval;
import org.apache.commons.math3.optim.SimpleBounds;
import org.apache.commons.math3.optim.nonlinear.scalar.GoalType;
import org.apache.commons.math3.optim.nonlinear.scalar.ObjectiveFunction;
import org.apache.commons.math3.optim.nonlinear.scalar.noderiv.BOBYQAOptimizer;
import org.apache.commons.math3.optim.univariate.BrentOptimizer;
import org.apache.commons.math3.optim.univariate.SearchInterval;
import org.apache.commons.math3.optim.univariate.UnivariateObjectiveFunction;

/**
 * Fits knobs together: minimises the band distance of the catalogue ({@link BandDistance#total}) over the
 * knobs' values with BOBYQA (Powell's bound-constrained derivative-free optimiser, commons-math3), or Brent's
 * method for a single knob. Each knob moves on a log2 scale around its default, from a quarter to four times it
 * ({@link #SPAN}) inside its declared bounds, starting at the default. The best point seen is returned when
 * the evaluation budget runs out.
 */
public final class KnobFit {

    /** How far a knob may move, in doublings either way of its default. */
    public static final double SPAN = 2;
    /** BOBYQA's first trust-region radius, in doublings: its first probes are the default times 2^(+-0.5). */
    public static final double INITIAL_RADIUS = 0.5;
    /** BOBYQA stops when its trust region is smaller than this, in doublings (a factor of about 1.007). */
    public static final double STOPPING_RADIUS = 0.01;

    /** The best knob values found, the objective there and at the defaults, and how many evaluations it took. */
    public record Optimum(KnobSet knobs, double objective, double atDefaults, int evaluations) {
    }

    /** A fit over the catalogue: the optimum and the scores before (defaults) and after (fitted). */
    public record Fit(Optimum optimum, List<CaseScore> before, List<CaseScore> after) {
    }

    private KnobFit() {
    }

    /** Fits {@code knobs} over the catalogue with at most {@code maxEvaluations} scorings of it. */
    public static Fit fit(List<Knob> knobs, CatalogueScores catalogue, int maxEvaluations) {
        Optimum optimum = minimise(knobs, k -> BandDistance.total(catalogue.score(k)), maxEvaluations);
        return new Fit(optimum, catalogue.score(KnobSet.DEFAULTS), catalogue.score(optimum.knobs()));
    }

    /** Minimises {@code objective} over the knobs' values; knobs whose default is 0 cannot be scaled and are refused. */
    public static Optimum minimise(List<Knob> knobs, ToDoubleFunction<KnobSet> objective, int maxEvaluations) {
        if (knobs.isEmpty()) {
            throw new IllegalArgumentException("no knob to fit");
        }
        for (Knob k : knobs) {
            if (!(k.defaultValue() > 0)) {
                throw new IllegalArgumentException("knob " + k.name() + " has default " + k.defaultValue()
                        + ": a fit scales defaults, so it needs one above 0");
            }
        }
        int n = knobs.size();
        double[] lower = new double[n];
        double[] upper = new double[n];
        for (int i = 0; i < n; i++) {
            Knob k = knobs.get(i);
            lower[i] = Math.max(-SPAN, log2(Math.max(k.min(), Double.MIN_NORMAL) / k.defaultValue()));
            upper[i] = Math.min(SPAN, log2(k.max() / k.defaultValue()));
        }
        Tracker tracker = new Tracker(knobs, objective);
        double atDefaults = tracker.value(new double[n]);
        try {
            if (n == 1) {
                new BrentOptimizer(1e-3, 1e-3).optimize(new MaxEval(Math.max(1, maxEvaluations - 1)),
                        new UnivariateObjectiveFunction(x -> tracker.value(new double[] {x})), GoalType.MINIMIZE,
                        new SearchInterval(lower[0], upper[0], 0));
            } else {
                double radius = INITIAL_RADIUS;
                for (int i = 0; i < n; i++) {
                    radius = Math.min(radius, (upper[i] - lower[i]) / 2);
                }
                new BOBYQAOptimizer(2 * n + 1, radius, Math.min(STOPPING_RADIUS, radius / 2)).optimize(
                        new MaxEval(Math.max(2 * n + 2, maxEvaluations - 1)), new ObjectiveFunction(tracker::value),
                        GoalType.MINIMIZE, new InitialGuess(new double[n]), new SimpleBounds(lower, upper));
            }
        } catch (TooManyEvaluationsException e) {
            // the budget ran out: the best point seen stands
        }
        return new Optimum(tracker.best, tracker.bestValue, atDefaults, tracker.evaluations);
    }

    private static double log2(double x) {
        return Math.log(x) / Math.log(2);
    }

    /** Evaluates points (log2 factors of the defaults) and keeps the best one. */
    private static final class Tracker {
        private final List<Knob> knobs;
        private final ToDoubleFunction<KnobSet> objective;
        private KnobSet best = KnobSet.DEFAULTS;
        private double bestValue = Double.POSITIVE_INFINITY;
        private int evaluations;

        Tracker(List<Knob> knobs, ToDoubleFunction<KnobSet> objective) {
            this.knobs = knobs;
            this.objective = objective;
        }

        double value(double[] x) {
            KnobSet set = KnobSet.DEFAULTS;
            for (int i = 0; i < x.length; i++) {
                Knob k = knobs.get(i);
                double v = k.clamp(k.defaultValue() * Math.pow(2, x[i]));
                if (v != k.defaultValue()) {
                    set = set.with(k, v);
                }
            }
            double f = objective.applyAsDouble(set);
            evaluations++;
            if (f < bestValue) {
                best = set;
                bestValue = f;
            }
            return f;
        }
    }
}
