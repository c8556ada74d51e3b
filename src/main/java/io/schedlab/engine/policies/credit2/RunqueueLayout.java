package io.schedlab.engine.policies.credit2;

import io.schedlab.engine.model.Pcpu;
import io.schedlab.engine.model.Topology;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which run queue each pCPU belongs to, after credit2.c {@code cpu_runqueue_match}: pCPUs sharing a
 * cpu|core|socket|node (or all) share a run queue. With a size limit (opt_max_cpus_runqueue, 4.14+)
 * the pCPUs join queues as {@code cpu_add_to_runqueue} (xen/common/sched/credit2.c, RELEASE-4.14.0) adds
 * them, in id order: a pCPU whose sibling is already in a matching queue joins it whatever its size;
 * otherwise it joins the least full matching queue (the first of equals) that holds fewer than
 * n / ceil(n / limit) pCPUs, n the host's online CPUs (the even spread), and has room for the pCPU's
 * whole core besides the whole cores already there ({@code cpu_runqueue_siblings_match}; from 4.18
 * not asked under {@code runqueue=all}); failing both it opens a new queue. Cores therefore stay whole
 * however the host numbers its threads. Under core scheduling the pCPUs here are scheduling resources
 * (one thread each) while n still counts the host's threads, as Xen's num_online_cpus() does.
 */
public final class RunqueueLayout {
    private final int[] rqOf;
    private final int count;

    /** Without core scheduling: n is the topology's size; cores kept whole in every mode (Xen 4.14-4.17). */
    public RunqueueLayout(Topology topo, String mode, int maxCpus) {
        this(topo, mode, maxCpus, topo.size(), false);
    }

    public RunqueueLayout(Topology topo, String mode, int maxCpus, int onlineCpus, boolean allIgnoresCoreRoom) {
        rqOf = new int[topo.size()];
        int perQueue = maxCpus > 0 ? onlineCpus / ((onlineCpus - 1) / maxCpus + 1) : Integer.MAX_VALUE;
        boolean coreRoom = !(allIgnoresCoreRoom && "all".equals(mode));
        Map<Integer, Integer> threadsOfCore = new HashMap<>();
        for (Pcpu p : topo.pcpus()) {
            threadsOfCore.merge(p.core, 1, Integer::sum);
        }
        List<Queue> queues = new ArrayList<>();
        for (Pcpu p : topo.pcpus()) {
            int key = key(mode, p);
            Queue chosen = null;
            for (Queue q : queues) {
                if (q.key != key) {
                    continue;
                }
                if (q.cores.contains(p.core)) {
                    chosen = q;
                    break;
                }
                boolean roomForTheCore = !coreRoom || q.threads + threadsOfCore.get(p.core) <= perQueue;
                if (q.size < perQueue && roomForTheCore && (chosen == null || q.size < chosen.size)) {
                    chosen = q;
                }
            }
            if (chosen == null) {
                chosen = new Queue(queues.size(), key);
                queues.add(chosen);
            }
            chosen.add(p, threadsOfCore.get(p.core));
            rqOf[p.id] = chosen.index;
        }
        count = queues.size();
    }

    private static int key(String mode, Pcpu p) {
        return switch (mode) {
            case "cpu" -> p.id;
            case "core" -> p.core;
            case "socket" -> p.socket;
            case "node" -> p.numaNode;
            case "all" -> 0;
            default -> throw new IllegalArgumentException("runqueue must be cpu|core|socket|node|all: " + mode);
        };
    }

    /**
     * A run queue being filled: its topology key, how many pCPUs it holds, the cores they belong to and
     * those cores' threads counted whole (cpu_runqueue_siblings_match counts a member's siblings, here or not).
     */
    private static final class Queue {
        final int index;
        final int key;
        final Set<Integer> cores = new HashSet<>();
        int size;
        int threads;

        Queue(int index, int key) {
            this.index = index;
            this.key = key;
        }

        void add(Pcpu p, int threadsOfItsCore) {
            if (cores.add(p.core)) {
                threads += threadsOfItsCore;
            }
            size++;
        }
    }

    public int runqueueOf(int pcpu) {
        return rqOf[pcpu];
    }

    public int count() {
        return count;
    }
}
