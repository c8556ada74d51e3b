package io.schedlab.engine.sweepgrid;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The seeds of a sweep's repetitions: the first {@code n} values of {@link SplittableRandom}
 * seeded with the sweep's seed (a fixed algorithm, so the same sweep seed always gives the same
 * seeds). Repetition r uses the same seed in every cell: cells then differ only by their
 * parameters (common random numbers), which makes cell-to-cell differences less noisy.
 */
final class SeedSequence {

    private SeedSequence() {
    }

    static List<Long> of(long sweepSeed, int n) {
        SplittableRandom random = new SplittableRandom(sweepSeed);
        List<Long> seeds = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            seeds.add(random.nextLong() & Long.MAX_VALUE); // non-negative: easier to read and to type back
        }
        return seeds;
    }
}
