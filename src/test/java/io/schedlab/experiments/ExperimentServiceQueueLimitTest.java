package io.schedlab.experiments;

import io.schedlab.experiments.status.ExperimentStatus;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.schedlab.engine.Engine;
import io.schedlab.experiments.persistence.ExperimentRepository;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.core.io.ClassPathResource;
import org.springframework.transaction.PlatformTransactionManager;

/** The queue-full check reuses a depth it read and counts its own submissions, so a burst cannot overshoot. */
class ExperimentServiceQueueLimitTest {

    @Test
    void aBurstIsCutAtTheLimitWithoutReCountingTheQueue() throws Exception {
        ExperimentRepository repository = mock(ExperimentRepository.class);
        JobQueue queue = mock(JobQueue.class);
        when(queue.depth()).thenReturn(3L);
        ExperimentService service = new ExperimentService(Engine.standard(),
                new LimitsProperties(1 << 20, 256, 2048, 512, 3600, 500_000_000L, 1000, 1_000_000L, 512), repository, queue,
                mock(PlatformTransactionManager.class), Runnable::run, new SimpleMeterRegistry(), 5, Duration.ofHours(1), "target/test-data/queue-limit");
        byte[] body = new ClassPathResource("service/seed001-static.json").getContentAsString(StandardCharsets.UTF_8)
                .getBytes(StandardCharsets.UTF_8);

        service.submit(body); // depth 3 read once -> 4
        service.submit(body); // 4 -> 5
        assertThatThrownBy(() -> service.submit(body)).isInstanceOf(QueueFullException.class)
                .hasMessageContaining("5 of 5");
        verify(queue, times(1)).depth();
        verify(queue, times(2)).enqueueAll(any());
    }

    @Test
    void withNoCacheEverySubmissionReadsTheQueue() throws Exception {
        ExperimentRepository repository = mock(ExperimentRepository.class);
        JobQueue queue = mock(JobQueue.class);
        when(queue.depth()).thenReturn(4L, 0L);
        ExperimentService service = new ExperimentService(Engine.standard(),
                new LimitsProperties(1 << 20, 256, 2048, 512, 3600, 500_000_000L, 1000, 1_000_000L, 512), repository, queue,
                mock(PlatformTransactionManager.class), Runnable::run, new SimpleMeterRegistry(), 4, Duration.ZERO, "target/test-data/queue-limit");
        byte[] body = new ClassPathResource("service/seed001-static.json").getContentAsString(StandardCharsets.UTF_8)
                .getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> service.submit(body)).isInstanceOf(QueueFullException.class);
        assertThat(service.submit(body).status()).isEqualTo(ExperimentStatus.QUEUED); // the queue drained
    }
}
