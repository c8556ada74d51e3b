package io.schedlab.engine.policies.coresched;

import io.schedlab.engine.model.Pcpu;
import io.schedlab.engine.model.Topology;
import java.util.ArrayList;
import java.util.List;

/**
 * The scheduling resources of a host (xen/common/sched/core.c schedule_cpu_add: the pCPUs of
 * sched_get_opt_cpumask merged into one sched_resource, sched_res_idx numbering them) and the
 * topology the inner policy schedules on: one pCPU per resource, same sockets and NUMA nodes.
 */
final class ResourceLayout {
    final SchedResource[] resources;
    /** Resource of each host pCPU, and the pCPU's index in it. */
    final SchedResource[] resourceOf;
    final int[] indexInResource;
    final Topology topology;

    ResourceLayout(Topology host, SchedGranularity gran) {
        int n = host.size();
        resourceOf = new SchedResource[n];
        indexInResource = new int[n];
        List<SchedResource> list = new ArrayList<>();
        List<Pcpu> resourcePcpus = new ArrayList<>();
        for (int p = 0; p < n; p++) {
            if (resourceOf[p] != null) {
                continue;
            }
            Pcpu first = host.pcpu(p);
            List<Integer> members = new ArrayList<>();
            for (int q = p; q < n; q++) {
                if (sameResource(gran, first, host.pcpu(q))) {
                    members.add(q);
                }
            }
            int id = list.size();
            Pcpu rp = new Pcpu(id, first.socket, id, 0, first.numaNode);
            SchedResource r = new SchedResource(rp, members.stream().mapToInt(Integer::intValue).toArray());
            for (int k = 0; k < r.cpus.length; k++) {
                resourceOf[r.cpus[k]] = r;
                indexInResource[r.cpus[k]] = k;
            }
            list.add(r);
            resourcePcpus.add(rp);
        }
        resources = list.toArray(new SchedResource[0]);
        int coresPerSocket = gran == SchedGranularity.SOCKET ? 1 : host.coresPerSocket();
        topology = new Topology(List.copyOf(resourcePcpus), host.sockets(), coresPerSocket, 1, host.numaNodes(),
                host.numaDistance(), host.nodeBandwidthMBps(), host.nodeMemoryMb(), host.llcKbPerSocket(),
                host.l2KbPerCore(), host.l1KbPerCore());
    }

    /**
     * One resource per core (socket): its pCPUs in ascending ids, consecutive or not (the host's numbering
     * decides), and resources in the order of their lowest pCPU (Xen's master is cpumask_first of the mask).
     */
    private static boolean sameResource(SchedGranularity gran, Pcpu a, Pcpu b) {
        return gran == SchedGranularity.SOCKET ? a.socket == b.socket : a.core == b.core;
    }

    int cpusPerResource() {
        return resources[0].cpus.length;
    }
}
