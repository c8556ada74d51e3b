package io.schedlab.packaging;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import tools.jackson.databind.JsonNode;

/** Grafana provisioning in docker/grafana: datasource, dashboard provider and dashboard agree with compose. */
class GrafanaProvisioningTest {

    @Test
    void datasourcePointsAtTheComposePrometheusWithTheUidTheDashboardUses() {
        Map<String, Object> datasource = prometheusDatasource();
        URI url = URI.create(String.valueOf(datasource.get("url")));
        assertThat(url.getHost()).isEqualTo("prometheus");
        assertThat(ComposeFileTest.service("prometheus").get("ports").toString()).contains(":" + url.getPort());

        String uid = String.valueOf(datasource.get("uid"));
        JsonNode dashboard = DashboardQueries.dashboard();
        for (JsonNode panel : dashboard.get("panels")) {
            assertThat(panel.get("datasource").get("uid").asString()).as(panel.get("title").asString()).isEqualTo(uid);
            for (JsonNode target : panel.get("targets")) {
                assertThat(target.get("datasource").get("uid").asString()).isEqualTo(uid);
            }
        }
    }

    @Test
    void dashboardProviderReadsTheDirectoryComposeMountsTheDashboardsInto() throws Exception {
        Map<String, Object> provider = RepoFiles.map(
                ((List<?>) RepoFiles.yaml("docker/grafana/provisioning/dashboards/schedlab.yml").get("providers")).get(0));
        String path = String.valueOf(RepoFiles.map(provider.get("options")).get("path"));
        assertThat(path).isEqualTo(ComposeFileTest.mountTarget("grafana", "./docker/grafana/dashboards"));
        try (Stream<Path> files = Files.list(RepoFiles.path("docker/grafana/dashboards"))) {
            assertThat(files.filter(f -> f.toString().endsWith(".json"))).isNotEmpty();
        }
    }

    @Test
    void dashboardShowsTheIssuesPanels() {
        List<String> expressions = DashboardQueries.expressions();
        assertThat(expressions).anyMatch(e -> e.contains("schedlab_queue_depth"));
        assertThat(expressions).anyMatch(e -> e.matches(".*sum by \\(outcome\\).*schedlab_experiments_finished_total.*"));
        assertThat(expressions).anyMatch(e -> e.contains("outcome=\"failed\""));
        assertThat(expressions).anyMatch(e -> e.startsWith("histogram_quantile(0.99") && e.contains("schedlab_queue_wait_seconds_bucket"));
        assertThat(expressions).anyMatch(e -> e.startsWith("histogram_quantile(0.99") && e.contains("schedlab_run_seconds_bucket"));
        assertThat(expressions).anyMatch(e -> e.contains("rate(schedlab_simulated_events_total"));
        assertThat(expressions).anyMatch(e -> e.contains("schedlab_simulation_speed"));
        assertThat(expressions).anyMatch(e -> e.contains("schedlab_workers_busy"));
        assertThat(expressions).anyMatch(e -> e.contains("schedlab_workers_size"));
        assertThat(expressions).anyMatch(e -> e.startsWith("histogram_quantile(0.99") && e.contains("http_server_requests_seconds_bucket"));
    }

    @Test
    void everyPanelHasAQueryAndAUniqueId() {
        JsonNode panels = DashboardQueries.dashboard().get("panels");
        assertThat(panels.size()).isGreaterThanOrEqualTo(8);
        assertThat(panels.valueStream().map(p -> p.get("id").asInt()).distinct().count()).isEqualTo(panels.size());
        for (JsonNode panel : panels) {
            assertThat(panel.get("targets").size()).as(panel.get("title").asString()).isPositive();
            for (JsonNode target : panel.get("targets")) {
                assertThat(target.get("expr").asString()).isNotBlank();
            }
        }
    }

    private static Map<String, Object> prometheusDatasource() {
        List<?> datasources = (List<?>) RepoFiles.yaml("docker/grafana/provisioning/datasources/prometheus.yml").get("datasources");
        return datasources.stream().map(RepoFiles::map)
                .filter(d -> "prometheus".equals(d.get("type")))
                .findFirst().orElseThrow(() -> new AssertionError("no prometheus datasource"));
    }
}
