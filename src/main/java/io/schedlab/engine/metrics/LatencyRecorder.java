package io.schedlab.engine.metrics;

import io.schedlab.engine.result.Distribution;
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
 */
public final class LatencyRecorder {
    /** CDF points reported: every 5% plus the tail. */
    private static final double[] CDF_FRACTIONS = {0.05, 0.10, 0.15, 0.20, 0.25, 0.30, 0.35, 0.40, 0.45, 0.50, 0.55,
        0.60, 0.65, 0.70, 0.75, 0.80, 0.85, 0.90, 0.95, 0.99, 0.999, 1.0};

    private final AbstractHistogram histogram;
    /**
     * A run of equal values not yet in the histogram (decision and switch costs repeat a lot):
     * recording a value n times or once with count n leaves the same histogram.
     */
    private long runValue = -1;
    private long runLength;

    public LatencyRecorder() {
        this.histogram = new Histogram(3);
    }

    private LatencyRecorder(AbstractHistogram histogram) {
        this.histogram = histogram;
    }

    /** A small recorder for per-entity latencies. */
    public static LatencyRecorder compact() {
        IntCountsHistogram h = new IntCountsHistogram(100, 1_000_000, 2);
        h.setAutoResize(true);
        return new LatencyRecorder(h);
    }

    public void record(long nanos) {
        long value = Math.max(0, nanos);
        if (value == runValue) {
            runLength++;
            return;
        }
        flushRun();
        runValue = value;
        runLength = 1;
    }

    private void flushRun() {
        if (runLength > 0) {
            histogram.recordValueWithCount(runValue, runLength);
            runLength = 0;
            runValue = -1;
        }
    }

    public long count() {
        flushRun();
        return histogram.getTotalCount();
    }

    /** Percentiles and max; with {@code withCdf} also ~20 CDF points. */
    public Distribution toDistribution(boolean withCdf) {
        flushRun();
        if (histogram.getTotalCount() == 0) {
            return new Distribution(0, 0, 0, 0, 0, 0, 0, List.of());
        }
        int cdfPoints = withCdf ? CDF_FRACTIONS.length : 0;
        double[] percentiles = new double[cdfPoints + HEADLINE_PERCENTILES.length];
        for (int i = 0; i < cdfPoints; i++) {
            percentiles[i] = CDF_FRACTIONS[i] * 100.0;
        }
        System.arraycopy(HEADLINE_PERCENTILES, 0, percentiles, cdfPoints, HEADLINE_PERCENTILES.length);
        long[] values = valuesAtPercentiles(percentiles);
        List<Distribution.CdfPoint> cdf = new ArrayList<>(cdfPoints);
        for (int i = 0; i < cdfPoints; i++) {
            cdf.add(new Distribution.CdfPoint(values[i], CDF_FRACTIONS[i]));
        }
        return new Distribution(histogram.getTotalCount(), histogram.getMean(), values[cdfPoints],
                values[cdfPoints + 1], values[cdfPoints + 2], values[cdfPoints + 3], histogram.getMaxValue(),
                List.copyOf(cdf));
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
        long total = histogram.getTotalCount();
        Integer[] order = new Integer[n];
        long[] needed = new long[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
            double requested = Math.min(Math.max(Math.nextAfter(percentiles[i], Double.NEGATIVE_INFINITY), 0.0D),
                    100.0D);
            needed[i] = Math.max((long) Math.ceil(requested * total / 100.0), 1);
        }
        java.util.Arrays.sort(order, (a, b) -> Long.compare(needed[a], needed[b]));
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
}
