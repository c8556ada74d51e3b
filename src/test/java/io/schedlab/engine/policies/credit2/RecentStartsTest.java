package io.schedlab.engine.policies.credit2;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The incremental is_preemptable mask equals testing every pCPU: running and started at most grace ns ago. */
class RecentStartsTest {
    private static final long NONE = Long.MIN_VALUE;

    @Test
    void maskEqualsThePerPcpuTest() {
        SplittableRandom random = new SplittableRandom(3);
        for (int round = 0; round < 100; round++) {
            int pcpus = 1 + random.nextInt(130); // one to three words
            long grace = 1 + random.nextInt(1000);
            RecentStarts recent = new RecentStarts(pcpus, grace);
            long[] startOf = new long[pcpus];
            Arrays.fill(startOf, NONE);
            long now = 0;
            for (int op = 0; op < 2000; op++) {
                now += random.nextInt(300);
                int cpu = random.nextInt(pcpus);
                if (random.nextInt(4) == 0) {
                    recent.idle(cpu);
                    startOf[cpu] = NONE;
                } else {
                    recent.started(cpu, now);
                    startOf[cpu] = now;
                }
                long[] words = recent.at(now);
                assertThat(recent.valid()).isTrue();
                for (int c = 0; c < pcpus; c++) {
                    boolean young = startOf[c] != NONE && now - startOf[c] <= grace;
                    assertThat((words[c >>> 6] & (1L << c)) != 0).as("round %d op %d pCPU %d", round, op, c)
                            .isEqualTo(young);
                }
            }
        }
    }

    @Test
    void aStartOutOfTimeOrderTurnsTheMaskOff() {
        RecentStarts recent = new RecentStarts(4, 100);
        recent.started(0, 50);
        recent.started(1, 40);
        assertThat(recent.valid()).isFalse();
    }
}
