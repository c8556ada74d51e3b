package io.schedlab.experiments;

import io.schedlab.access.CallerAccess;
import io.schedlab.experiments.status.ExperimentStatus;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.schedlab.engine.Engine;
import io.schedlab.experiments.persistence.ExperimentRepository;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.core.io.ClassPathResource;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * The per-key quotas at submission: QUEUED experiments against max-queued-per-key (running ones do
 * not count), a batch (a sweep's children) refused whole, the legacy max-active-per-key still
 * counting QUEUED plus RUNNING, and no quota without an owner.
 */
class ExperimentServiceQuotaTest {

    private static final List<ExperimentStatus> QUEUED = List.of(ExperimentStatus.QUEUED);
    private static final List<ExperimentStatus> ACTIVE = List.of(ExperimentStatus.QUEUED, ExperimentStatus.RUNNING);

    private final ExperimentRepository repository = mock(ExperimentRepository.class);
    private final JobQueue queue = mock(JobQueue.class);

    @SuppressWarnings("unchecked")
    private ExperimentService service(QuotaProperties quotas, String owner) {
        ExperimentService service = new ExperimentService(Engine.standard(),
                new LimitsProperties(1 << 20, 256, 2048, 512, 3600, 500_000_000L, 1000, 1_000_000L, 512), repository, queue,
                mock(PlatformTransactionManager.class), Runnable::run, new SimpleMeterRegistry(), 1000, Duration.ZERO,
                "target/test-data/quota");
        ObjectProvider<QuotaProperties> configured = mock(ObjectProvider.class);
        when(configured.getIfAvailable(any())).thenReturn(quotas);
        service.configureSubmissions(mock(ObjectProvider.class), configured);
        service.setAccessProvider(() -> new CallerAccess(owner, false, false, true));
        return service;
    }

    private static byte[] body() throws Exception {
        return new ClassPathResource("service/seed001-static.json").getContentAsString(StandardCharsets.UTF_8)
                .getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void queuedExperimentsCountAgainstTheQueuedQuotaAndRunningOnesDoNot() throws Exception {
        ExperimentService service = service(new QuotaProperties(3, 1, 0, Duration.ofSeconds(10)), "alice");
        when(repository.countByOwnerAndStatusIn(eq("alice"), eq(QUEUED))).thenReturn(2L);
        when(repository.countByOwnerAndStatusIn(eq("alice"), eq(ACTIVE))).thenReturn(50L);
        assertThat(service.submit(body()).status()).isEqualTo(ExperimentStatus.QUEUED);

        when(repository.countByOwnerAndStatusIn(eq("alice"), eq(QUEUED))).thenReturn(3L);
        assertThatThrownBy(() -> service.submit(body())).isInstanceOfSatisfying(QuotaExceededException.class, e -> {
            assertThat(e.limit()).isEqualTo("schedlab.quotas.max-queued-per-key");
            assertThat(e.current()).isEqualTo(3);
            assertThat(e.max()).isEqualTo(3);
            assertThat(e.getMessage()).contains("3 experiments queued").contains("retry once some have started");
        });
    }

    @Test
    void aBatchThatWouldGoOverIsRefusedWholeAndOneThatCanNeverFitSaysSo() throws Exception {
        ExperimentService service = service(new QuotaProperties(3, 0, 0, Duration.ofSeconds(10)), "alice");
        when(repository.countByOwnerAndStatusIn(eq("alice"), eq(QUEUED))).thenReturn(2L);
        ValidatedExperiment child = service.validate(body());
        assertThatThrownBy(() -> service.submitValidated(List.of(child, child), ids -> { }))
                .isInstanceOfSatisfying(QuotaExceededException.class, e -> assertThat(e.requested()).isEqualTo(2));
        when(repository.countByOwnerAndStatusIn(eq("alice"), eq(QUEUED))).thenReturn(0L);
        assertThatThrownBy(() -> service.submitValidated(List.of(child, child, child, child), ids -> { }))
                .hasMessageContaining("can never fit: split it into submissions of at most 3");
        verify(queue, never()).enqueueAll(any());
    }

    @Test
    void theLegacyActiveQuotaStillCountsQueuedPlusRunning() throws Exception {
        ExperimentService service = service(new QuotaProperties(0, 0, 4, Duration.ofSeconds(10)), "bob");
        when(repository.countByOwnerAndStatusIn(eq("bob"), eq(ACTIVE))).thenReturn(4L);
        assertThatThrownBy(() -> service.submit(body())).isInstanceOfSatisfying(QuotaExceededException.class,
                e -> assertThat(e.limit()).isEqualTo("schedlab.quotas.max-active-per-key"));
    }

    @Test
    void withoutAnOwnerThereIsNoQuota() throws Exception {
        ExperimentService service = service(new QuotaProperties(1, 1, 1, Duration.ofSeconds(10)), null);
        when(repository.countByOwnerAndStatusIn(any(), any())).thenReturn(99L);
        assertThat(service.submit(body()).status()).isEqualTo(ExperimentStatus.QUEUED);
    }
}
