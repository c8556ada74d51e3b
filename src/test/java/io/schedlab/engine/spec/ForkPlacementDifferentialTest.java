package io.schedlab.engine.spec;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** {@link ForkPlacement} places every vCPU thread where the plain list-walking version does. */
class ForkPlacementDifferentialTest {

    @Test
    void placesEveryVcpuAsThePlainVersionOnRandomHostsAffinitiesAndLoads() {
        SplittableRandom r = new SplittableRandom(20261202);
        int vmsCompared = 0;
        int spreadAcrossSockets = 0;
        for (int round = 0; round < 300; round++) {
            int sockets = 1 + r.nextInt(4);
            int cores = 1 + r.nextInt(6);
            int threads = 1 + r.nextInt(2);
            HostSpec host = host(sockets, cores, threads, r.nextBoolean(), r.nextBoolean());
            int pcpus = (int) host.usablePcpus();
            int[] populated = new int[pcpus];
            ForkPlacement fast = new ForkPlacement(host, pcpus);
            for (int vm = 0; vm < 1 + r.nextInt(6); vm++) {
                List<List<Integer>> hard = affinities(r, pcpus, 1 + r.nextInt(2 * pcpus));
                List<Integer> want = KvmForkPlacementReference.kvmForkPlacement(host, pcpus, populated, hard);
                assertThat(fast.place(populated, hard)).as("round %d vm %d", round, vm).isEqualTo(want);
                assertThat(InitialPlacement.kvmForkPlacement(host, pcpus, populated, hard)).isEqualTo(want);
                if (want.stream().map(host::socketOfPcpu).distinct().count() > 1) {
                    spreadAcrossSockets++;
                }
                for (int p : want) {
                    populated[p]++;
                }
                vmsCompared++;
            }
        }
        assertThat(vmsCompared).isGreaterThan(500);
        assertThat(spreadAcrossSockets).as("the comparison covers placements over several sockets").isGreaterThan(50);
    }

    private static HostSpec host(int sockets, int cores, int threads, boolean numa, boolean coresFirst) {
        List<NumaNodeSpec> nodes = new ArrayList<>();
        for (int s = 0; s < (numa ? sockets : 1); s++) {
            nodes.add(new NumaNodeSpec(numa ? List.of(s) : allSockets(sockets), null, null));
        }
        return new HostSpec(sockets, cores, threads, nodes, null, null, null, null, null,
                coresFirst ? CpuNumbering.CORES_FIRST : CpuNumbering.SIBLINGS_ADJACENT);
    }

    private static List<Integer> allSockets(int sockets) {
        List<Integer> out = new ArrayList<>();
        for (int s = 0; s < sockets; s++) {
            out.add(s);
        }
        return out;
    }

    /** One shared list (all pCPUs, or a random subset) for most VMs, per-vCPU lists for some, as the normalizer gives. */
    private static List<List<Integer>> affinities(SplittableRandom r, int pcpus, int vcpus) {
        List<Integer> shared = r.nextInt(3) == 0 ? subset(r, pcpus) : allOf(pcpus);
        List<List<Integer>> out = new ArrayList<>();
        for (int i = 0; i < vcpus; i++) {
            out.add(r.nextInt(5) == 0 ? subset(r, pcpus) : shared);
        }
        return out;
    }

    private static List<Integer> allOf(int pcpus) {
        List<Integer> out = new ArrayList<>();
        for (int c = 0; c < pcpus; c++) {
            out.add(c);
        }
        return List.copyOf(out);
    }

    private static List<Integer> subset(SplittableRandom r, int pcpus) {
        List<Integer> out = new ArrayList<>();
        for (int c = 0; c < pcpus; c++) {
            if (r.nextInt(3) == 0) {
                out.add(c);
            }
        }
        if (out.isEmpty()) {
            out.add(r.nextInt(pcpus));
        }
        return List.copyOf(out);
    }
}
