package io.schedlab.engine.metrics;

import io.schedlab.engine.result.Distribution;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.AbstractHistogram;
import org.HdrHistogram.Histogram;
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
        List<Distribution.CdfPoint> cdf = new ArrayList<>();
        if (withCdf) {
            for (double f : CDF_FRACTIONS) {
                cdf.add(new Distribution.CdfPoint(histogram.getValueAtPercentile(f * 100.0), f));
            }
        }
        return new Distribution(histogram.getTotalCount(), histogram.getMean(), histogram.getValueAtPercentile(50),
                histogram.getValueAtPercentile(90), histogram.getValueAtPercentile(99),
                histogram.getValueAtPercentile(99.9), histogram.getMaxValue(), List.copyOf(cdf));
    }
}
