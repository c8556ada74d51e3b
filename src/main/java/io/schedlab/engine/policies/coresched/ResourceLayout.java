package io.schedlab.engine.policies.coresched;

import io.schedlab.engine.model.Pcpu;
import io.schedlab.engine.model.Topology;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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
        // one resource per core (socket): its pCPUs in ascending ids, consecutive or not (the host's numbering
        // decides), resources in the order of their lowest pCPU (Xen's master is cpumask_first of the mask)
        Map<Integer, List<Integer>> membersByKey = new LinkedHashMap<>();
        for (Pcpu p : host.pcpus()) {
            membersByKey.computeIfAbsent(gran == SchedGranularity.SOCKET ? p.socket : p.core, k -> new ArrayList<>())
                    .add(p.id);
        }
        List<SchedResource> list = new ArrayList<>();
        List<Pcpu> resourcePcpus = new ArrayList<>();
        for (List<Integer> members : membersByKey.values()) {
            Pcpu first = host.pcpu(members.get(0));
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

    int cpusPerResource() {
        return resources[0].cpus.length;
    }
}
