package io.schedlab.experiments.web;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.schedlab.experiments.EngineConfiguration;
import io.schedlab.experiments.ExperimentService;
import io.schedlab.experiments.JobQueue;
import io.schedlab.experiments.persistence.ExperimentRepository;
import io.schedlab.experiments.persistence.SubmissionTransaction;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * Wiring shared by the web slice tests that run the real service and engine validator: storage,
 * queue and transactions mocked, a simple meter registry. Subclasses add {@code @WebMvcTest}.
 */
@Import({ExperimentService.class, ProgressStreams.class, EngineConfiguration.class, RealValidatorSlice.Meters.class})
abstract class RealValidatorSlice {

    /** A simple meter registry and a direct submission transaction (also used by ExperimentApiTest). */
    @TestConfiguration
    static class Meters {
        @Bean
        MeterRegistry meterRegistry() {
            return new SimpleMeterRegistry();
        }

        /** The repository and queue are mocks: their calls run directly, there is no database. */
        @Bean
        SubmissionTransaction submissionTransaction() {
            return Runnable::run;
        }
    }

    @Autowired
    MockMvc mvc;
    @MockitoBean
    ExperimentRepository repository;
    @MockitoBean
    JobQueue jobQueue;
    @MockitoBean
    PlatformTransactionManager transactions;
    /** The sweeps API's controllers are in every web slice; not under test here. */
    @MockitoBean
    io.schedlab.sweeps.SweepService sweeps;
}
