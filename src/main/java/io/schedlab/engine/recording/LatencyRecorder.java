package io.schedlab.engine.recording;

import io.schedlab.engine.output.Distribution;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.AbstractHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;
import org.HdrHistogram.IntCountsHistogram;

/**
 * Records nanosecond latencies in an auto-resizing HdrHistogram: fixed memory whatever the run
 * length. {@link #LatencyRecorder()} keeps 3 significant digits (run-wide distributions);
 * {@link #compact()} keeps 2 digits with int counts and 100 ns resolution (~10 KB; per VM/vCPU).
 * Values are counted in a plain array laid out like the histogram's (so about twice the histogram's
 * memory); a distribution is read from that array, or through the histogram once counts were moved in
 * ({@link #count()}, or a bucket's count near the int limit).
 */
public final class LatencyRecorder {
    /** CDF points reported: every 5% plus the tail. */
    private static final double[] CDF_FRACTIONS = {0.05, 0.10, 0.15, 0.20, 0.25, 0.30, 0.35, 0.40, 0.45, 0.50, 0.55,
        0.60, 0.65, 0.70, 0.75, 0.80, 0.85, 0.90, 0.95, 0.99, 0.999, 1.0};

    private final AbstractHistogram histogram;
    /*
     * Counts not yet in the histogram, per HdrHistogram counts-array index (the same index formula,
     * AbstractHistogram.countsArrayIndex of HdrHistogram 2.2): recording is one increment, with no
     * virtual calls, min/max or total-count upkeep. Moved into the histogram (one
     * recordValueWithCount per used bucket, at the bucket's lowest value) before it is read; the
     * histogram's figures depend on its bucket counts only, so they are those of recording every value.
     */
    private final int unitMagnitude;
    private final int subBucketHalfCountMagnitude;
    private final int subBucketHalfCount;
    private final long subBucketMask;
    private final int leadingZeroCountBase;
    private int[] pending;
    /** The last value recorded and its counts index (a repeat skips the index arithmetic); at first 0, index 0. */
    private long lastValue;
    private int lastIndex;

    public LatencyRecorder() {
        this(new Histogram(3), 1, 3);
    }

    private LatencyRecorder(AbstractHistogram histogram, long lowestDiscernibleValue, int significantDigits) {
        this.histogram = histogram;
        // As AbstractHistogram.init derives its bucket layout.
        long largestValueWithSingleUnitResolution = 2 * (long) Math.pow(10, significantDigits);
        this.unitMagnitude = (int) (Math.log(lowestDiscernibleValue) / Math.log(2));
        int subBucketCountMagnitude = (int) Math.ceil(Math.log(largestValueWithSingleUnitResolution) / Math.log(2));
        this.subBucketHalfCountMagnitude = subBucketCountMagnitude - 1;
        int subBucketCount = 1 << subBucketCountMagnitude;
        this.subBucketHalfCount = subBucketCount / 2;
        this.subBucketMask = ((long) subBucketCount - 1) << unitMagnitude;
        this.leadingZeroCountBase = 64 - unitMagnitude - subBucketCountMagnitude;
        this.pending = new int[subBucketCount];
    }

    /** A small recorder for per-entity latencies. */
    public static LatencyRecorder compact() {
        IntCountsHistogram h = new IntCountsHistogram(100, 1_000_000, 2);
        h.setAutoResize(true);
        return new LatencyRecorder(h, 100, 2);
    }

    public void record(long nanos) {
        if (nanos == lastValue) { // decision, switch and context_saved costs mostly repeat
            if (++pending[lastIndex] == Integer.MAX_VALUE) {
                flushPending();
            }
            return;
        }
        long value = Math.max(0, nanos);
        int bucketIndex = leadingZeroCountBase - Long.numberOfLeadingZeros(value | subBucketMask);
        int subBucketIndex = (int) (value >>> (bucketIndex + unitMagnitude));
        int index = ((bucketIndex + 1) << subBucketHalfCountMagnitude) + (subBucketIndex - subBucketHalfCount);
        int[] counts = pending;
        if (index >= counts.length) {
            counts = grow(index);
        }
        lastValue = nanos;
        lastIndex = index;
        if (++counts[index] == Integer.MAX_VALUE) {
            flushPending();
        }
    }

    private int[] grow(int index) {
        int n = pending.length;
        while (n <= index) {
            n += n >>> 1;
        }
        pending = java.util.Arrays.copyOf(pending, n);
        return pending;
    }

    private void flushPending() {
        int[] counts = pending; // read-time only: a scan of the (small) array, no flag kept per record
        for (int index = 0; index < counts.length; index++) {
            if (counts[index] != 0) {
                histogram.recordValueWithCount(lowestValueAt(index), counts[index]);
                counts[index] = 0;
            }
        }
    }

    /** The lowest value recorded at a counts index (AbstractHistogram.valueFromIndex). */
    private long lowestValueAt(int index) {
        int bucketIndex = (index >> subBucketHalfCountMagnitude) - 1;
        int subBucketIndex = (index & (subBucketHalfCount - 1)) + subBucketHalfCount;
        if (bucketIndex < 0) {
            subBucketIndex -= subBucketHalfCount;
            bucketIndex = 0;
        }
        return ((long) subBucketIndex) << (bucketIndex + unitMagnitude);
    }

    public long count() {
        flushPending();
        return histogram.getTotalCount();
    }

    /**
     * Percentiles and max; with {@code withCdf} also ~20 CDF points; {@link Distribution#EMPTY} with no samples.
     * While every count is still in the plain array (nothing moved into the histogram yet: the usual case), the
     * figures are read from it in one walk ({@link #fromPendingCounts}); else the counts move in and
     * HdrHistogram's figures are read ({@link #throughHistogram}). Both give the same figures.
     */
    public Distribution toDistribution(boolean withCdf) {
        return histogram.getTotalCount() == 0 ? fromPendingCounts(withCdf) : throughHistogram(withCdf);
    }

    /** The figures as HdrHistogram computes them, after moving the counts in (tests compare the two paths). */
    Distribution throughHistogram(boolean withCdf) {
        flushPending();
        if (histogram.getTotalCount() == 0) {
            return Distribution.EMPTY;
        }
        double[] percentiles = percentilesRead(withCdf);
        long[] values = valuesAtPercentiles(percentiles);
        return distribution(histogram.getTotalCount(), histogram.getMean(), values, histogram.getMaxValue(), withCdf);
    }

    /**
     * The figures of {@link #throughHistogram} from the plain counts, in one walk over the used indexes
     * (result building walked each histogram twice through HdrHistogram's iterator, for the mean and for the
     * percentiles: a third of a short run's time). Each figure repeats HdrHistogram 2.2.2's arithmetic
     * (AbstractHistogram.getMean, getMaxValue, RecordedValuesIterator): a used index stands for its bucket's
     * highest equivalent value, the mean sums each bucket's median equivalent value times its count in index
     * order as a double, and the max is the highest equivalent value of the last used index (0 when that is the first).
     */
    private Distribution fromPendingCounts(boolean withCdf) {
        int[] counts = pending;
        long total = 0;
        int last = -1;
        for (int index = 0; index < counts.length; index++) {
            if (counts[index] != 0) {
                total += counts[index];
                last = index;
            }
        }
        if (total == 0) {
            return Distribution.EMPTY;
        }
        double[] percentiles = percentilesRead(withCdf);
        int n = percentiles.length;
        long[] needed = neededCounts(percentiles, total);
        int[] order = ascending(needed);
        long[] values = new long[n];
        int next = 0;
        long cumulative = 0;
        double totalValue = 0;
        for (int index = 0; index <= last; index++) {
            int count = counts[index];
            if (count == 0) {
                continue;
            }
            long lowest = lowestValueAt(index);
            long size = equivalentRangeSize(lowest);
            long highest = lowest + size - 1;
            cumulative += count;
            totalValue += (lowest + (size >> 1)) * (double) count;
            while (next < n && cumulative >= needed[order[next]]) {
                values[order[next++]] = highest;
            }
        }
        long lowestOfLast = lowestValueAt(last);
        // getMaxValue: 0 while the max recorded is 0 (only the first index used), else its highest equivalent value
        long max = lowestOfLast == 0 ? 0 : lowestOfLast + equivalentRangeSize(lowestOfLast) - 1;
        return distribution(total, totalValue * 1.0 / total, values, max, withCdf);
    }

    /** AbstractHistogram.sizeOfEquivalentValueRange of a bucket's lowest value: 1 << (unit magnitude + bucket index). */
    private long equivalentRangeSize(long lowestValue) {
        int bucketIndex = leadingZeroCountBase - Long.numberOfLeadingZeros(lowestValue | subBucketMask);
        return 1L << (unitMagnitude + bucketIndex);
    }

    /** The CDF points (with {@code withCdf}) then the headline percentiles, in percent. */
    private static double[] percentilesRead(boolean withCdf) {
        int cdfPoints = withCdf ? CDF_FRACTIONS.length : 0;
        double[] percentiles = new double[cdfPoints + HEADLINE_PERCENTILES.length];
        for (int i = 0; i < cdfPoints; i++) {
            percentiles[i] = CDF_FRACTIONS[i] * 100.0;
        }
        System.arraycopy(HEADLINE_PERCENTILES, 0, percentiles, cdfPoints, HEADLINE_PERCENTILES.length);
        return percentiles;
    }

    private static Distribution distribution(long total, double mean, long[] values, long max, boolean withCdf) {
        int cdfPoints = withCdf ? CDF_FRACTIONS.length : 0;
        List<Distribution.CdfPoint> cdf = new ArrayList<>(cdfPoints);
        for (int i = 0; i < cdfPoints; i++) {
            cdf.add(new Distribution.CdfPoint(values[i], CDF_FRACTIONS[i]));
        }
        return new Distribution(total, mean, values[cdfPoints], values[cdfPoints + 1], values[cdfPoints + 2],
                values[cdfPoints + 3], max, List.copyOf(cdf));
    }

    /** p50, p90, p99, p99.9. */
    private static final double[] HEADLINE_PERCENTILES = {50, 90, 99, 99.9};

    /**
     * {@code getValueAtPercentile} for several percentiles (each above 0) in one walk over the
     * recorded values instead of one walk from the first bucket per percentile (26 of them per
     * distribution made result building most of a small experiment's worker time). The count each
     * percentile needs is computed exactly as HdrHistogram 2.2's {@code getValueAtPercentile} does,
     * and the value is the highest equivalent value of the first bucket reaching it (what the
     * recorded-values iterator reports); LatencyRecorderProperties checks both against HdrHistogram.
     */
    private long[] valuesAtPercentiles(double[] percentiles) {
        int n = percentiles.length;
        long[] needed = neededCounts(percentiles, histogram.getTotalCount());
        int[] order = ascending(needed);
        long[] values = new long[n];
        int next = 0;
        for (HistogramIterationValue v : histogram.recordedValues()) {
            while (next < n && v.getTotalCountToThisValue() >= needed[order[next]]) {
                values[order[next++]] = v.getValueIteratedTo();
            }
            if (next == n) {
                break;
            }
        }
        return values;
    }

    /** The count each percentile needs, as HdrHistogram 2.2.2's getValueAtPercentile computes it. */
    private static long[] neededCounts(double[] percentiles, long total) {
        long[] needed = new long[percentiles.length];
        for (int i = 0; i < percentiles.length; i++) {
            double requested = Math.min(Math.max(Math.nextAfter(percentiles[i], Double.NEGATIVE_INFINITY), 0.0D),
                    100.0D);
            needed[i] = Math.max((long) Math.ceil(requested * total / 100.0), 1);
        }
        return needed;
    }

    /** The positions of {@code needed} from its smallest value up (ties in position order; ~26 entries). */
    private static int[] ascending(long[] needed) {
        int n = needed.length;
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            int j = i;
            while (j > 0 && needed[order[j - 1]] > needed[i]) {
                order[j] = order[j - 1];
                j--;
            }
            order[j] = i;
        }
        return order;
    }
}
