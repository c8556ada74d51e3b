package io.schedlab.packaging;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The PromQL metric-name extractor the dashboard tests rely on. */
class PromQlMetricNamesTest {

    @Test
    void findsTheBucketMetricInsideAHistogramQuantile() {
        assertThat(PromQlMetricNames.of(
                "histogram_quantile(0.99, sum by (le, policy) (rate(schedlab_run_seconds_bucket{policy=~\"$policy\"}[$__rate_interval])))"))
                .containsExactly("schedlab_run_seconds_bucket");
    }

    @Test
    void findsBothSidesOfABinaryOperationAndIgnoresNumbersAndKeywords() {
        assertThat(PromQlMetricNames.of(
                "sum(rate(a_total{outcome=\"failed\"}[1m])) / on(job) group_left clamp_min(sum(rate(b_total[5m] offset 1h)), 1e-9) > bool 2"))
                .containsExactly("a_total", "b_total");
    }

    @Test
    void ignoresLabelNamesAndValuesThatLookLikeMetrics() {
        assertThat(PromQlMetricNames.of("max by (instance) (up{job=\"schedlab_queue_depth\", instance=~\"x.*\"})"))
                .containsExactly("up");
    }

    @Test
    void findsABareSelectorWithColons() {
        assertThat(PromQlMetricNames.of("job:requests:rate5m")).containsExactly("job:requests:rate5m");
    }
}
