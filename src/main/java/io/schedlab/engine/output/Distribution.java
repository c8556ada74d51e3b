package io.schedlab.engine.output;

import java.util.List;

/**
 * A latency distribution in nanoseconds from an HdrHistogram: count, mean, percentiles, max and CDF
 * points. With no samples ({@code count == 0}) every statistic is null and {@code cdf} is empty.
 */
public record Distribution(long count, Double meanNanos, Long p50Nanos, Long p90Nanos, Long p99Nanos,
        Long p999Nanos, Long maxNanos, List<CdfPoint> cdf) {

    /** The distribution of no samples. */
    public static final Distribution EMPTY = new Distribution(0, null, null, null, null, null, null, List.of());

    /** One CDF point: the fraction of samples at or below {@code valueNanos}. */
    public record CdfPoint(long valueNanos, double fraction) {
    }
}
