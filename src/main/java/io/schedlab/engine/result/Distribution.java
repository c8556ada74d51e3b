package io.schedlab.engine.result;

import java.util.List;

/** A latency distribution in nanoseconds from an HdrHistogram: count, mean, percentiles, max and CDF points. */
public record Distribution(long count, double meanNanos, long p50Nanos, long p90Nanos, long p99Nanos,
        long p999Nanos, long maxNanos, List<CdfPoint> cdf) {

    /** One CDF point: the fraction of samples at or below {@code valueNanos}. */
    public record CdfPoint(long valueNanos, double fraction) {
    }
}
