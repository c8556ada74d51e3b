package io.schedlab.engine.policies.linux;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.model.Pcpu;
import io.schedlab.engine.model.Topology;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** SchedDomain.forAll (one instance per span) against SchedDomain.of built CPU by CPU, on random host shapes. */
class SchedDomainSharingTest {
    private static final LinuxParams PARAMS = new LinuxParams(EevdfOrderTest.defaults(Map.of()), true);

    @Test
    void everyCpusDomainsEqualThoseBuiltForItAlone() {
        Random random = new Random(21);
        for (int round = 0; round < 60; round++) {
            int sockets = 1 + random.nextInt(4);
            int cores = 1 + random.nextInt(6);
            int threads = 1 + random.nextInt(2);
            int nodes = random.nextBoolean() ? 1 : sockets;
            Topology topo = host(sockets, cores, threads, nodes);
            SchedDomain[][] shared = SchedDomain.forAll(topo, PARAMS);
            assertThat(shared.length).isEqualTo(topo.size());
            for (int cpu = 0; cpu < topo.size(); cpu++) {
                List<SchedDomain> alone = SchedDomain.of(topo, cpu, PARAMS);
                assertThat(shared[cpu]).as("cpu %d of %dx%dx%d", cpu, sockets, cores, threads).hasSize(alone.size());
                for (int d = 0; d < alone.size(); d++) {
                    assertSame(shared[cpu][d], alone.get(d));
                }
            }
        }
    }

    @Test
    void cpusOfOneSpanShareOneDomainAndTheHostOneTopDomain() {
        Topology topo = host(2, 2, 2, 2);
        SchedDomain[][] shared = SchedDomain.forAll(topo, PARAMS);
        // SMT, MC, NUMA for every CPU: siblings 0 and 1 share their SMT domain, CPUs 0 and 3 their MC domain
        assertThat(shared[0]).hasSize(3);
        assertThat(shared[0][0]).isSameAs(shared[1][0]).isNotSameAs(shared[2][0]);
        assertThat(shared[0][1]).isSameAs(shared[3][1]).isNotSameAs(shared[4][1]);
        assertThat(shared[0][2]).isSameAs(shared[7][2]);
        assertThat(shared[0][2].level).isEqualTo("NUMA");
    }

    private static void assertSame(SchedDomain a, SchedDomain b) {
        assertThat(a.level).isEqualTo(b.level);
        assertThat(a.span).containsExactly(b.span);
        assertThat(a.groupOf).containsExactly(b.groupOf);
        assertThat(a.groups).hasSameSizeAs(b.groups);
        for (int g = 0; g < b.groups.size(); g++) {
            assertThat(a.groups.get(g)).containsExactly(b.groups.get(g));
        }
        assertThat(a.imbalancePct).isEqualTo(b.imbalancePct);
        assertThat(a.cacheNiceTries).isEqualTo(b.cacheNiceTries);
        assertThat(a.intervalNanos).isEqualTo(b.intervalNanos);
    }

    /** sockets x cores x threads, CPU ids socket-major; sockets spread evenly over {@code nodes} NUMA nodes. */
    private static Topology host(int sockets, int cores, int threads, int nodes) {
        List<Pcpu> pcpus = new ArrayList<>();
        for (int s = 0; s < sockets; s++) {
            for (int c = 0; c < cores; c++) {
                for (int t = 0; t < threads; t++) {
                    pcpus.add(new Pcpu(pcpus.size(), s, s * cores + c, t, s * nodes / sockets));
                }
            }
        }
        int[][] distance = new int[nodes][nodes];
        for (int i = 0; i < nodes; i++) {
            for (int j = 0; j < nodes; j++) {
                distance[i][j] = i == j ? 10 : 21;
            }
        }
        double[] bandwidth = new double[nodes];
        long[] memory = new long[nodes];
        java.util.Arrays.fill(bandwidth, 1e4);
        java.util.Arrays.fill(memory, 1024);
        return new Topology(pcpus, sockets, cores, threads, nodes, distance, bandwidth, memory, 1024, 256, 32);
    }
}
