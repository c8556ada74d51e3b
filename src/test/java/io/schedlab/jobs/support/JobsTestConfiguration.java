package io.schedlab.jobs.support;

import io.schedlab.experiments.ExperimentLifecycle;
import io.schedlab.jobs.SimulationRunner;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;

/** Replaces the experiment store and the engine with the in-memory store and the fake simulator. */
@TestConfiguration(proxyBeanMethods = false)
public class JobsTestConfiguration {

    /** Shared across contexts so a "restarted" process sees the same experiment records. */
    public static final InMemoryExperiments EXPERIMENTS = new InMemoryExperiments();

    /** Wall seconds per simulated second of the fake engine; tests may change it between contexts. */
    public static volatile double wallPerSimulated = 1.0;

    @Bean
    @Primary
    ExperimentLifecycle inMemoryExperiments() {
        return EXPERIMENTS;
    }

    @Bean
    @Primary
    SimulationRunner fakeSimulator() {
        return new FakeSimulator(wallPerSimulated);
    }
}
