package io.schedlab.packaging;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Static checks of docker-compose.yml against the application and the files it mounts (no Docker engine here). */
class ComposeFileTest {

    private static final List<String> REPLICAS = List.of("schedlab-1", "schedlab-2");
    private static final List<String> CONTRACT_ENV = List.of(
            "SCHEDLAB_DB_URL", "SCHEDLAB_DB_USER", "SCHEDLAB_DB_PASSWORD", "SCHEDLAB_PORT", "SCHEDLAB_JOBS_WORKERS");

    private static Map<String, Object> compose;
    private static Map<String, Object> services;

    @BeforeAll
    static void parse() {
        compose = RepoFiles.yaml("docker-compose.yml");
        services = RepoFiles.map(compose.get("services"));
    }

    @Test
    void declaresPostgresTwoReplicasPrometheusAndGrafana() {
        assertThat(services).containsOnlyKeys("postgres", "schedlab-1", "schedlab-2", "prometheus", "grafana");
        assertThat(service("postgres").get("image")).asString().startsWith("postgres:16");
        assertThat(service("prometheus").get("image")).asString().startsWith("prom/prometheus:");
        assertThat(service("grafana").get("image")).asString().startsWith("grafana/grafana:");
    }

    @Test
    void replicasAreBuiltFromTheDockerfile() {
        for (String replica : REPLICAS) {
            assertThat(service(replica).get("build")).as(replica + " build context").isEqualTo(".");
        }
        assertThat(RepoFiles.path("Dockerfile")).exists();
    }

    @Test
    void replicaEnvironmentNamesAreReadByTheApplication() {
        KnownSettings settings = KnownSettings.load();
        for (String replica : REPLICAS) {
            Map<String, Object> env = environment(replica);
            assertThat(env.keySet()).as(replica + " environment").containsAll(CONTRACT_ENV);
            for (String name : env.keySet()) {
                assertThat(settings.readsEnvironmentVariable(name))
                        .as("%s sets %s, which no application.yml placeholder or property (relaxed binding) reads;"
                                + " placeholders %s", replica, name, settings.placeholderNames())
                        .isTrue();
            }
        }
    }

    @Test
    void replicasShareTheComposePostgresDatabase() {
        Map<String, Object> postgresEnv = environment("postgres");
        for (String replica : REPLICAS) {
            Map<String, Object> env = environment(replica);
            URI url = URI.create(String.valueOf(env.get("SCHEDLAB_DB_URL")).substring("jdbc:".length()));
            assertThat(url.getScheme()).isEqualTo("postgresql");
            assertThat(url.getHost()).isEqualTo("postgres");
            assertThat(url.getPort()).isEqualTo(5432);
            assertThat(url.getPath()).isEqualTo("/" + postgresEnv.get("POSTGRES_DB"));
            assertThat(env.get("SCHEDLAB_DB_USER")).isEqualTo(postgresEnv.get("POSTGRES_USER"));
            assertThat(env.get("SCHEDLAB_DB_PASSWORD")).isEqualTo(postgresEnv.get("POSTGRES_PASSWORD"));
            Map<String, Object> dependsOn = RepoFiles.map(service(replica).get("depends_on"));
            assertThat(RepoFiles.map(dependsOn.get("postgres")).get("condition")).isEqualTo("service_healthy");
        }
        assertThat(healthcheckCommand("postgres")).contains("pg_isready");
    }

    @Test
    void replicasPublishDistinctHostPortsOntoTheConfiguredServerPort() {
        List<String> hostPorts = new ArrayList<>();
        for (String replica : REPLICAS) {
            String serverPort = String.valueOf(environment(replica).get("SCHEDLAB_PORT"));
            List<String> ports = ports(replica);
            assertThat(ports).as(replica + " ports").hasSize(1);
            String[] hostAndContainer = ports.get(0).split(":");
            assertThat(hostAndContainer[1]).as(replica + " container port").isEqualTo(serverPort);
            hostPorts.add(hostAndContainer[0]);
        }
        for (String other : List.of("prometheus", "grafana")) {
            ports(other).forEach(p -> hostPorts.add(p.split(":")[0]));
        }
        assertThat(hostPorts).doesNotHaveDuplicates();
    }

    @Test
    void replicaHealthchecksProbeTheActuatorOnTheServerPort() {
        for (String replica : REPLICAS) {
            String port = String.valueOf(environment(replica).get("SCHEDLAB_PORT"));
            assertThat(healthcheckCommand(replica))
                    .contains("http://127.0.0.1:" + port + "/actuator/health/");
        }
    }

    @Test
    void everyBindMountSourceExistsAndEveryNamedVolumeIsDeclared() {
        Map<String, Object> declared = RepoFiles.map(compose.get("volumes"));
        for (Map.Entry<String, Object> entry : services.entrySet()) {
            Object volumes = RepoFiles.map(entry.getValue()).get("volumes");
            if (volumes == null) {
                continue;
            }
            for (Object volume : (List<?>) volumes) {
                String source = String.valueOf(volume).split(":")[0];
                if (source.startsWith(".") || source.startsWith("/")) {
                    Path path = RepoFiles.path(source);
                    assertThat(Files.exists(path)).as(entry.getKey() + " mounts " + source).isTrue();
                } else {
                    assertThat(declared).as(entry.getKey() + " named volume").containsKey(source);
                }
            }
        }
    }

    @Test
    void prometheusMountsItsConfigWhereItsCommandReadsIt() {
        String configMount = mountTarget("prometheus", "./docker/prometheus/prometheus.yml");
        assertThat(service("prometheus").get("command").toString()).contains("--config.file=" + configMount);
    }

    @Test
    void grafanaMountsProvisioningAndDashboards() {
        assertThat(mountTarget("grafana", "./docker/grafana/provisioning")).isEqualTo("/etc/grafana/provisioning");
        assertThat(mountTarget("grafana", "./docker/grafana/dashboards")).isNotEmpty();
    }

    /** The container path where a service mounts a project file or directory. */
    static String mountTarget(String serviceName, String source) {
        for (Object volume : (List<?>) service(serviceName).get("volumes")) {
            String[] parts = String.valueOf(volume).split(":");
            if (parts[0].equals(source)) {
                return parts[1];
            }
        }
        throw new AssertionError(serviceName + " does not mount " + source);
    }

    static Map<String, Object> service(String name) {
        if (services == null) {
            parse();
        }
        assertThat(services).containsKey(name);
        return RepoFiles.map(services.get(name));
    }

    static Map<String, Object> environment(String name) {
        return RepoFiles.map(service(name).get("environment"));
    }

    private static List<String> ports(String name) {
        List<String> ports = new ArrayList<>();
        ((List<?>) service(name).get("ports")).forEach(p -> ports.add(String.valueOf(p)));
        return ports;
    }

    private static String healthcheckCommand(String name) {
        Map<String, Object> healthcheck = RepoFiles.map(service(name).get("healthcheck"));
        assertThat(healthcheck).as(name + " healthcheck").isNotNull();
        return String.valueOf(healthcheck.get("test"));
    }
}
