package io.schedlab.engine.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The per-pCPU run time of a vCPU: dense (small host) and sparse (large host) storage give the same sorted totals. */
class PcpuTimesTest {

    @Test
    void denseAndSparseStorageReportTheSameTotalsInPcpuOrder() {
        SplittableRandom random = new SplittableRandom(7);
        for (int round = 0; round < 200; round++) {
            int pcpus = 1 + random.nextInt(PcpuTimes.DENSE_MAX_PCPUS);
            PcpuTimes dense = new PcpuTimes(pcpus);
            PcpuTimes sparse = new PcpuTimes(PcpuTimes.DENSE_MAX_PCPUS + 1);
            TreeMap<Long, Long> expected = new TreeMap<>();
            int pcpu = random.nextInt(pcpus);
            for (int i = 0; i < 100; i++) {
                if (random.nextInt(3) == 0) {
                    pcpu = random.nextInt(pcpus);
                }
                long ns = random.nextInt(5) - 1; // some zero and negative runs, which count nothing
                dense.add(pcpu, ns);
                sparse.add(pcpu, ns);
                if (ns > 0) {
                    expected.merge((long) pcpu, ns, Long::sum);
                }
            }
            long[][] want = expected.entrySet().stream()
                    .map(e -> new long[] {e.getKey(), e.getValue()}).toArray(long[][]::new);
            assertThat(dense.sorted()).isDeepEqualTo(want);
            assertThat(sparse.sorted()).isDeepEqualTo(want);
        }
    }
}
