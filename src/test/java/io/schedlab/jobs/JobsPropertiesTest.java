package io.schedlab.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/** {@code schedlab.jobs.*} binding: documented defaults, relaxed names, and clear errors naming the property. */
class JobsPropertiesTest {

    private static JobsProperties bind(Map<String, String> values) {
        return new Binder(new MapConfigurationPropertySource(values))
                .bindOrCreate("schedlab.jobs", JobsProperties.class);
    }

    @Test
    void defaultsMatchTheServiceContract() {
        JobsProperties defaults = bind(Map.of());
        assertThat(defaults.workers()).isEqualTo(Runtime.getRuntime().availableProcessors());
        assertThat(defaults.maxQueued()).isEqualTo(1000);
        assertThat(defaults.timeout()).isEqualTo(Duration.ofMinutes(30));
        assertThat(defaults.progressInterval()).isEqualTo(Duration.ofMillis(500));
        assertThat(defaults.heartbeatInterval()).isEqualTo(Duration.ofSeconds(1));
        assertThat(defaults.missedHeartbeats()).isEqualTo(6);
        assertThat(defaults.deadAfter()).isEqualTo(Duration.ofSeconds(6));
        assertThat(defaults.pollingInterval()).isEqualTo(Duration.ofSeconds(1));
        assertThat(defaults.enabled()).isTrue();
        assertThat(defaults.pickAhead()).isEqualTo(1);
        assertThat(defaults.replicaWakeUps()).isTrue();
    }

    @Test
    void valuesBindFromKebabCaseProperties() {
        JobsProperties properties = bind(Map.of("schedlab.jobs.workers", "3", "schedlab.jobs.timeout", "90s",
                "schedlab.jobs.missed-heartbeats", "4", "schedlab.jobs.enabled", "false"));
        assertThat(properties.workers()).isEqualTo(3);
        assertThat(properties.timeout()).isEqualTo(Duration.ofSeconds(90));
        assertThat(properties.missedHeartbeats()).isEqualTo(4);
        assertThat(properties.enabled()).isFalse();
    }

    @Test
    void workersBindFromTheComposeEnvironmentVariable() {
        var environment = new org.springframework.core.env.SystemEnvironmentPropertySource("env",
                Map.<String, Object>of("SCHEDLAB_JOBS_WORKERS", "5", "SCHEDLAB_JOBS_ENABLED", "false"));
        JobsProperties properties = new Binder(
                org.springframework.boot.context.properties.source.ConfigurationPropertySources.from(environment))
                .bindOrCreate("schedlab.jobs", JobsProperties.class);
        assertThat(properties.workers()).isEqualTo(5);
        assertThat(properties.enabled()).isFalse();
    }

    @Test
    void invalidValuesAreRejectedNamingTheProperty() {
        assertThatThrownBy(() -> bind(Map.of("schedlab.jobs.workers", "0")))
                .rootCause().hasMessageContaining("schedlab.jobs.workers");
        assertThatThrownBy(() -> bind(Map.of("schedlab.jobs.pick-ahead", "9")))
                .rootCause().hasMessageContaining("schedlab.jobs.pick-ahead must be between 0 and 8");
        assertThatThrownBy(() -> bind(Map.of("schedlab.jobs.pick-ahead", "-1")))
                .rootCause().hasMessageContaining("schedlab.jobs.pick-ahead");
        assertThatThrownBy(() -> bind(Map.of("schedlab.jobs.missed-heartbeats", "3")))
                .rootCause().hasMessageContaining("schedlab.jobs.missed-heartbeats must be >= 4");
        assertThatThrownBy(() -> bind(Map.of("schedlab.jobs.timeout", "0s")))
                .rootCause().hasMessageContaining("schedlab.jobs.timeout");
    }
}
