package io.schedlab.engine.sim;

import io.schedlab.engine.model.Pcpu;
import io.schedlab.engine.model.Topology;
import io.schedlab.engine.spec.CpuNumbering;
import io.schedlab.engine.spec.HostSpec;
import java.util.List;

/** Builds the model {@link Topology} from a normalized {@link HostSpec} (pCPU ids as its {@code cpuNumbering} gives them). */
public final class TopologyBuilder {
    private TopologyBuilder() {
    }

    public static Topology build(HostSpec h) {
        int sockets = h.sockets();
        int cores = h.coresPerSocket();
        int threads = h.usableThreadsPerCore(); // SMT off: one thread per core
        int nodes = h.numaNodes().size();
        int[] nodeOfSocket = new int[sockets];
        for (int n = 0; n < nodes; n++) {
            for (int s : h.numaNodes().get(n).sockets()) {
                nodeOfSocket[s] = n;
            }
        }
        CpuNumbering numbering = h.numbering();
        Pcpu[] byId = new Pcpu[sockets * cores * threads];
        for (int s = 0; s < sockets; s++) {
            for (int c = 0; c < cores; c++) {
                for (int t = 0; t < threads; t++) {
                    int id = numbering.pcpuId(sockets, cores, threads, s, c, t);
                    byId[id] = new Pcpu(id, s, s * cores + c, t, nodeOfSocket[s]);
                }
            }
        }
        List<Pcpu> pcpus = List.of(byId);
        int[][] distance = new int[nodes][nodes];
        double[] bandwidth = new double[nodes];
        long[] memory = new long[nodes];
        for (int i = 0; i < nodes; i++) {
            for (int j = 0; j < nodes; j++) {
                distance[i][j] = h.numaDistance().get(i).get(j);
            }
            bandwidth[i] = h.numaNodes().get(i).bandwidthMBps();
            memory[i] = h.numaNodes().get(i).memoryMb();
        }
        return new Topology(pcpus, sockets, cores, threads, nodes, distance, bandwidth, memory,
                h.llcKbPerSocket(), h.l2KbPerCore(), h.l1KbPerCore());
    }
}
