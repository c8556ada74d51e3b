package io.schedlab.jobs.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.schedlab.jobs.metrics.JobMetrics.Outcome;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The job meters appear in a Prometheus scrape under the names the dashboard and contract use. */
class JobMetricsPrometheusTest {

    @Test
    void finishedCountersOfEveryPolicyAndOutcomeStartAtZero() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        JobMetrics metrics = new JobMetrics(registry, () -> 0, () -> 1);
        metrics.preRegister(java.util.List.of("credit", "static"));
        String scrape = registry.scrape();
        for (String policy : java.util.List.of("credit", "static")) {
            for (String outcome : java.util.List.of("succeeded", "failed", "cancelled")) {
                assertThat(scrape).contains("schedlab_experiments_finished_total{outcome=\"" + outcome
                        + "\",policy=\"" + policy + "\"} 0.0");
            }
            assertThat(scrape).contains("schedlab_simulated_events_total{policy=\"" + policy + "\"} 0.0");
        }
        metrics.finished("static", Outcome.FAILED, Duration.ofMillis(5));
        assertThat(registry.scrape())
                .contains("schedlab_experiments_finished_total{outcome=\"failed\",policy=\"static\"} 1.0");
    }

    @Test
    void scrapeUsesTheContractNamesAndTags() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        JobMetrics metrics = new JobMetrics(registry, () -> 7, () -> 4);
        RunMeters credit = metrics.forPolicy("credit");
        credit.queueWait(Duration.ofMillis(12));
        credit.simulated(5_000, 2_000_000_000L);
        credit.speed(10, Duration.ofSeconds(2));
        metrics.finished("credit", Outcome.SUCCEEDED, Duration.ofMillis(900));
        metrics.finished("credit2", Outcome.CANCELLED, Duration.ofMillis(100));
        metrics.workerBusy();
        metrics.cancelledBeforeStart("credit2");

        String scrape = registry.scrape();

        assertThat(scrape)
                .contains("schedlab_experiments_finished_total{outcome=\"succeeded\",policy=\"credit\"} 1.0")
                .contains("schedlab_experiments_finished_total{outcome=\"cancelled\",policy=\"credit2\"} 2.0")
                .contains("schedlab_run_seconds_count{outcome=\"cancelled\",policy=\"credit2\"} 1")
                .contains("schedlab_queue_wait_seconds_bucket{policy=\"credit\",le=")
                .contains("schedlab_queue_wait_seconds_count{policy=\"credit\"} 1")
                .contains("schedlab_run_seconds_bucket{outcome=\"succeeded\",policy=\"credit\",le=")
                .contains("schedlab_simulated_events_total{policy=\"credit\"} 5000.0")
                .contains("schedlab_simulated_time_seconds_total{policy=\"credit\"} 2.0")
                .contains("schedlab_simulation_speed_count{policy=\"credit\"} 1")
                .contains("schedlab_simulation_speed_sum{policy=\"credit\"} 5.0")
                .contains("schedlab_simulation_speed_max{policy=\"credit\"} 5.0")
                .contains("schedlab_queue_depth 7.0")
                .contains("schedlab_workers_busy 1.0")
                .contains("schedlab_workers_size 4.0")
                .containsPattern("schedlab_workers_busy_time_seconds_total [0-9.E-]+");
    }

    @Test
    void queueDepthIsReadFromTheDatabaseAtMostOncePerSecond() {
        long[] reads = {0};
        long[] now = {0};
        CachedLongSupplier depth = new CachedLongSupplier(() -> ++reads[0], Duration.ofSeconds(1), () -> now[0]);
        for (int i = 0; i < 100; i++) {
            depth.getAsDouble();
            now[0] += 10_000_000L; // 10 ms between scrapes
        }
        assertThat(reads[0]).isEqualTo(1);
        assertThat(depth.getAsDouble()).isEqualTo(2.0);
    }
}
