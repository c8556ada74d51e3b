package io.schedlab.packaging;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** docker/prometheus/prometheus.yml scrapes every compose replica on its actuator endpoint. */
class PrometheusConfigTest {

    @Test
    void schedlabJobScrapesBothComposeReplicasOnTheActuatorPath() {
        Map<String, Object> job = schedlabJob();
        assertThat(job.get("metrics_path")).isEqualTo("/actuator/prometheus");

        List<String> expectedTargets = new ArrayList<>();
        for (String replica : List.of("schedlab-1", "schedlab-2")) {
            Object port = ComposeFileTest.environment(replica).get("SCHEDLAB_PORT");
            expectedTargets.add(replica + ":" + port);
        }
        assertThat(targets(job)).containsExactlyInAnyOrderElementsOf(expectedTargets);
    }

    @Test
    void scrapeIntervalIsShortEnoughForTheDashboardRates() {
        Map<String, Object> global = RepoFiles.map(RepoFiles.yaml("docker/prometheus/prometheus.yml").get("global"));
        String interval = String.valueOf(global.get("scrape_interval"));
        assertThat(interval).matches("\\d+s");
        assertThat(Integer.parseInt(interval.replace("s", ""))).isBetween(1, 15);
    }

    static Map<String, Object> schedlabJob() {
        List<?> jobs = (List<?>) RepoFiles.yaml("docker/prometheus/prometheus.yml").get("scrape_configs");
        return jobs.stream().map(RepoFiles::map)
                .filter(j -> "schedlab".equals(j.get("job_name")))
                .findFirst().orElseThrow(() -> new AssertionError("no scrape job named schedlab"));
    }

    private static List<String> targets(Map<String, Object> job) {
        List<String> targets = new ArrayList<>();
        for (Object staticConfig : (List<?>) job.get("static_configs")) {
            ((List<?>) RepoFiles.map(staticConfig).get("targets")).forEach(t -> targets.add(String.valueOf(t)));
        }
        return targets;
    }
}
