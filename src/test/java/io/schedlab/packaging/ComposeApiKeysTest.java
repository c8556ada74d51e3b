package io.schedlab.packaging;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.auth.ApiKey;
import io.schedlab.auth.ApiKeyRole;
import io.schedlab.auth.ApiKeys;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * docker-compose.yml runs the replicas with API keys on, and Prometheus scrapes them with a key
 * the replicas' keys file accepts (a role that may read), mounted where its scrape config reads it.
 */
class ComposeApiKeysTest {

    @Test
    void replicasReadAValidKeysFileMountedWhereTheirEnvironmentPointsAndPrometheusScrapesWithAKnownKey() {
        String keysPath = null;
        for (String replica : List.of("schedlab-1", "schedlab-2")) {
            String configured = String.valueOf(ComposeFileTest.environment(replica).get("SCHEDLAB_AUTH_KEYSFILE"));
            assertThat(KnownSettings.load().readsEnvironmentVariable("SCHEDLAB_AUTH_KEYSFILE")).isTrue();
            assertThat(ComposeFileTest.mountTarget(replica, "./docker/schedlab/api-keys")).isEqualTo(configured);
            keysPath = configured;
        }
        assertThat(keysPath).isNotBlank();
        ApiKeys keys = ApiKeys.parse(RepoFiles.read("docker/schedlab/api-keys").lines().toList(), "api-keys");

        Map<String, Object> authorization = RepoFiles.map(PrometheusConfigTest.schedlabJob().get("authorization"));
        assertThat(authorization.get("type")).isEqualTo("Bearer");
        String credentials = String.valueOf(authorization.get("credentials_file"));
        assertThat(ComposeFileTest.mountTarget("prometheus", "./docker/prometheus/schedlab-api-key"))
                .isEqualTo(credentials);
        Optional<ApiKey> scraper = keys.find(RepoFiles.read("docker/prometheus/schedlab-api-key").strip());
        assertThat(scraper).as("Prometheus's key is in the replicas' keys file").isPresent();
        assertThat(scraper.get().role().mayUse("GET")).isTrue();
        assertThat(scraper.get().role()).as("a scraper needs no more than reading").isEqualTo(ApiKeyRole.READER);
    }
}
