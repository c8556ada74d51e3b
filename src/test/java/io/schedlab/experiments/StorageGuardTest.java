package io.schedlab.experiments;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The free-disk check: refuses below the minimum naming it, lets through at or above it, reads the disk at most once a second. */
class StorageGuardTest {

    @Test
    void belowTheMinimumSubmissionsAreRefusedNamingTheSetting() throws Exception {
        AtomicLong free = new AtomicLong(300L << 20);
        AtomicLong reads = new AtomicLong();
        StorageGuard guard = new StorageGuard(256L << 20, () -> {
            reads.incrementAndGet();
            return free.get();
        });
        guard.requireRoom();
        free.set(100L << 20);
        guard.requireRoom(); // within the second: the earlier reading stands
        assertThat(reads.get()).isEqualTo(1);
        Thread.sleep(1_100);
        assertThatThrownBy(guard::requireRoom).isInstanceOf(StorageFullException.class)
                .hasMessageContaining("100 MiB free").hasMessageContaining("schedlab.limits.min-free-disk-mb");
        free.set(256L << 20);
        Thread.sleep(1_100);
        guard.requireRoom();
        assertThat(reads.get()).isEqualTo(3);
    }

    @Test
    void zeroTurnsTheCheckOff() {
        new StorageGuard(0, () -> 0).requireRoom();
        assertThatThrownBy(() -> new StorageGuard(-1, () -> 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
