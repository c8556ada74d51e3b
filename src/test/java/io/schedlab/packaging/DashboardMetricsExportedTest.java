package io.schedlab.packaging;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;

/** Every metric the Grafana dashboard queries is really exported by the running application. */
class DashboardMetricsExportedTest extends ServiceWithOneFinishedExperiment {

    @Test
    void everyMetricTheDashboardQueriesIsExported() throws Exception {
        Set<String> exported = PrometheusExposition.sampleNames(scrape());
        Set<String> queried = DashboardQueries.metricNames();
        assertThat(queried).hasSizeGreaterThanOrEqualTo(10);

        Set<String> missing = new TreeSet<>(queried);
        missing.removeAll(exported);
        assertThat(missing)
                .as("dashboard metrics not in /actuator/prometheus; SchedLab exports %s",
                        exported.stream().filter(n -> n.startsWith("schedlab_") || n.startsWith("http_server")).toList())
                .isEmpty();
    }

    @Test
    void failureCountersExistAtZeroBeforeTheFirstFailure() throws Exception {
        // the failure panels rate() these: a counter created by the first failure would be missed
        String exposition = scrape();
        for (String policy : java.util.List.of("credit", "credit2", "static", "null")) {
            assertThat(exposition).contains("schedlab_experiments_finished_total{outcome=\"failed\",policy=\""
                    + policy + "\"} 0.0");
        }
    }

    @Test
    void noExportedSampleCarriesAnExperimentId() throws Exception {
        String exposition = scrape();
        assertThat(finishedExperimentId()).isNotBlank();
        assertThat(exposition).doesNotContain(finishedExperimentId());
    }
}
