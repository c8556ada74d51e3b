package io.schedlab.engine.policies.credit2;

import io.schedlab.engine.model.Pcpu;
import io.schedlab.engine.model.Topology;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which run queue each pCPU belongs to, after credit2.c {@code cpu_to_runqueue} /
 * {@code cpu_runqueue_match}: pCPUs sharing a cpu|core|socket|node (or all) share a run queue;
 * with a size limit (opt_max_cpus_runqueue, 4.14+) a full group is split, whole cores at a time
 * (siblings stay together, as {@code cpu_runqueue_siblings_match} keeps them).
 */
public final class RunqueueLayout {
    private final int[] rqOf;
    private final int count;

    public RunqueueLayout(Topology topo, String mode, int maxCpus) {
        int n = topo.size();
        rqOf = new int[n];
        Map<Integer, List<Pcpu>> groups = new LinkedHashMap<>();
        for (Pcpu p : topo.pcpus()) {
            int key = switch (mode) {
                case "cpu" -> p.id;
                case "core" -> p.core;
                case "socket" -> p.socket;
                case "node" -> p.numaNode;
                case "all" -> 0;
                default -> throw new IllegalArgumentException("runqueue must be cpu|core|socket|node|all: " + mode);
            };
            groups.computeIfAbsent(key, k -> new ArrayList<>()).add(p);
        }
        int next = 0;
        for (List<Pcpu> group : groups.values()) {
            int size = 0;
            int lastCore = Integer.MIN_VALUE;
            boolean started = false;
            for (Pcpu p : group) {
                boolean newCore = p.core != lastCore;
                if (maxCpus > 0 && started && newCore && size + coreSize(topo, p, group) > maxCpus) {
                    next++;
                    size = 0;
                }
                if (maxCpus > 0 && started && size >= maxCpus) {
                    next++;
                    size = 0;
                }
                rqOf[p.id] = next;
                size++;
                started = true;
                lastCore = p.core;
            }
            next++;
        }
        count = next;
    }

    private static int coreSize(Topology topo, Pcpu p, List<Pcpu> group) {
        int c = 0;
        for (Pcpu q : group) {
            if (q.core == p.core) {
                c++;
            }
        }
        return c;
    }

    public int runqueueOf(int pcpu) {
        return rqOf[pcpu];
    }

    public int count() {
        return count;
    }
}
