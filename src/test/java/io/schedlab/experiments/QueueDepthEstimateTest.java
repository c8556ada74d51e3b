package io.schedlab.experiments;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The queue-full check's depth: counted once up front, then refreshed in the background, never on the caller. */
class QueueDepthEstimateTest {

    final AtomicLong queued = new AtomicLong(5);
    final AtomicInteger counts = new AtomicInteger();
    final List<Runnable> pending = new ArrayList<>();

    long count() {
        counts.incrementAndGet();
        return queued.get();
    }

    @Test
    void countsOnceUpFrontThenRefreshesOnTheBackgroundExecutorOnly() throws InterruptedException {
        QueueDepthEstimate depth = new QueueDepthEstimate(this::count, 1_000_000L, pending::add); // 1 ms
        assertThat(depth.current()).isEqualTo(5);
        depth.accepted();
        assertThat(depth.current()).as("counted up locally").isEqualTo(6);
        assertThat(counts).hasValue(1);

        Thread.sleep(5);
        queued.set(40);
        assertThat(depth.current()).as("stale: the caller still gets the estimate").isEqualTo(6);
        assertThat(depth.current()).isEqualTo(6);
        assertThat(pending).as("one refresh in flight at a time").hasSize(1);
        assertThat(counts).as("nothing counted on the caller's thread").hasValue(1);

        pending.remove(0).run();
        assertThat(depth.current()).isEqualTo(40);
        assertThat(counts).hasValue(2);
    }

    @Test
    void aFailedRefreshKeepsTheEstimateAndTheNextOneRunsAgain() throws InterruptedException {
        QueueDepthEstimate depth = new QueueDepthEstimate(() -> {
            if (counts.incrementAndGet() == 2) {
                throw new IllegalStateException("database away");
            }
            return queued.get();
        }, 1_000_000L, pending::add);
        assertThat(depth.current()).isEqualTo(5);
        Thread.sleep(5);
        depth.current();
        pending.remove(0).run();
        assertThat(depth.current()).isEqualTo(5);
        Thread.sleep(5);
        queued.set(7);
        depth.current();
        assertThat(pending).hasSize(1);
        pending.remove(0).run();
        assertThat(depth.current()).isEqualTo(7);
    }

    @Test
    void aRefusalAfterTheQueueDrainedRestsOnAFreshCountAtMostOncePerInterval() throws InterruptedException {
        QueueDepthEstimate depth = new QueueDepthEstimate(this::count, 20_000_000L, pending::add); // 20 ms
        assertThat(depth.current()).isEqualTo(5);
        for (int i = 0; i < 95; i++) {
            depth.accepted(); // a burst: the estimate says 100
        }
        assertThat(depth.confirmed()).as("counted just now: the estimate stands").isEqualTo(100);
        assertThat(counts).hasValue(1);

        Thread.sleep(30);
        queued.set(0); // the burst ran
        assertThat(depth.current()).as("stale until a refresh runs").isEqualTo(100);
        assertThat(depth.confirmed()).as("a refusal would rest on a stale count: counted again").isZero();
        assertThat(counts).hasValue(2);
        depth.accepted();
        assertThat(depth.confirmed()).as("within the interval: no second count").isEqualTo(1);
        assertThat(counts).hasValue(2);
    }

    @Test
    void aZeroIntervalCountsOnEveryRead() {
        QueueDepthEstimate depth = new QueueDepthEstimate(this::count, 0, pending::add);
        assertThat(depth.current()).isEqualTo(5);
        queued.set(2);
        assertThat(depth.current()).isEqualTo(2);
        assertThat(counts).hasValue(2);
        assertThat(pending).isEmpty();
    }
}
