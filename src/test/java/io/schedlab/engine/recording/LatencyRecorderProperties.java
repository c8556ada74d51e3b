package io.schedlab.engine.recording;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.ExploreWithRandomSeeds;
import io.schedlab.engine.output.Distribution;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import net.jqwik.api.constraints.IntRange;
import org.HdrHistogram.AbstractHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.IntCountsHistogram;

/**
 * Values are counted in a plain array in HdrHistogram's bucket layout and moved in before a read, and the percentiles are read in one walk: the figures
 * equal HdrHistogram's own of a histogram given every value.
 */
@AddLifecycleHook(ExploreWithRandomSeeds.class)
class LatencyRecorderProperties {

    @Property(seed = "20261203", tries = 50)
    void sameFiguresAsRecordingEveryValue(@ForAll long seed, @ForAll @IntRange(min = 1, max = 2000) int values) {
        assertSameFigures(seed, values, new LatencyRecorder(), new Histogram(3));
    }

    @Property(seed = "20261204", tries = 50)
    void compactRecordersMatchTheirHistogramToo(@ForAll long seed, @ForAll @IntRange(min = 1, max = 2000) int values) {
        IntCountsHistogram reference = new IntCountsHistogram(100, 1_000_000, 2); // as LatencyRecorder.compact()
        reference.setAutoResize(true);
        assertSameFigures(seed, values, LatencyRecorder.compact(), reference);
    }

    /** The one-walk read of the plain counts gives what moving them into the histogram and reading it gives. */
    @Property(seed = "20261205", tries = 60)
    void readingThePlainCountsEqualsReadingTheHistogram(@ForAll long seed,
            @ForAll @IntRange(min = 0, max = 3000) int values, @ForAll boolean compact, @ForAll boolean withCdf) {
        LatencyRecorder direct = compact ? LatencyRecorder.compact() : new LatencyRecorder();
        LatencyRecorder through = compact ? LatencyRecorder.compact() : new LatencyRecorder();
        SplittableRandom r = new SplittableRandom(seed);
        long scale = 1L << r.nextInt(5, 40); // one bucket (all at 0 in a compact recorder) up to many
        for (int i = 0; i < values; i++) {
            long value = r.nextInt(10) == 0 ? -1 : r.nextLong(scale);
            direct.record(value);
            through.record(value);
        }
        Distribution read = direct.toDistribution(withCdf);
        assertThat(read).isEqualTo(through.throughHistogram(withCdf));
        assertThat(read.count()).isEqualTo(values);
        assertThat(direct.toDistribution(withCdf)).isEqualTo(read); // reading leaves the counts as they were
    }

    private static void assertSameFigures(long seed, int values, LatencyRecorder recorder,
            AbstractHistogram reference) {
        SplittableRandom r = new SplittableRandom(seed);
        long value = 0;
        for (int i = 0; i < values; i++) {
            if (r.nextInt(3) == 0) { // else a repeat; also negative input, recorded as 0
                value = r.nextInt(5) == 0 ? -r.nextLong(1000) : r.nextLong(1_000_000_000L);
            }
            recorder.record(value);
            reference.recordValue(Math.max(0, value));
            if (r.nextInt(100) == 0) {
                assertThat(recorder.count()).isEqualTo(reference.getTotalCount()); // reading mid-run
            }
        }
        Distribution d = recorder.toDistribution(true);
        assertThat(d.count()).isEqualTo(reference.getTotalCount());
        assertThat(d.meanNanos()).isEqualTo(reference.getMean());
        assertThat(d.p50Nanos()).isEqualTo(reference.getValueAtPercentile(50));
        assertThat(d.p90Nanos()).isEqualTo(reference.getValueAtPercentile(90));
        assertThat(d.p99Nanos()).isEqualTo(reference.getValueAtPercentile(99));
        assertThat(d.p999Nanos()).isEqualTo(reference.getValueAtPercentile(99.9));
        assertThat(d.maxNanos()).isEqualTo(reference.getMaxValue());
        assertThat(d.cdf()).isNotEmpty();
        for (Distribution.CdfPoint point : d.cdf()) {
            assertThat(point.valueNanos()).isEqualTo(reference.getValueAtPercentile(point.fraction() * 100.0));
        }
    }
}
