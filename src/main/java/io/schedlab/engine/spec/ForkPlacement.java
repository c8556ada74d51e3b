package io.schedlab.engine.spec;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The fork placement of KVM vCPU threads ({@link InitialPlacement#kvmForkPlacement}: select_task_rq_fair ->
 * find_idlest_cpu -> find_idlest_group / find_idlest_group_cpu, kernel/sched/fair.c) over a host's domains
 * built once: each pCPU's core and socket and the members of each, ascending, so one vCPU's walk down the
 * three levels costs O(pCPUs) (the groups of the top level), not O(pCPUs^2) per level as list look-ups
 * would. A vCPU's hard affinity becomes a boolean per pCPU once per list object (a VM's vCPUs share one).
 */
final class ForkPlacement {
    /** Domain levels, bottom-up: SMT (a core's threads), MC (a socket's cores), the host (its sockets). */
    private static final int SMT = 0;
    private static final int MC = 1;
    private static final int TOP = 2;

    private final int pcpus;
    private final boolean numa;
    /** Per level: each pCPU's group key in that level's span (SMT: itself, MC: its core, TOP: its socket). */
    private final int[][] groupOf = new int[3][];
    /** Per level: the members of each group key, ascending. */
    private final int[][][] members = new int[3][][];
    /** Per level: each pCPU's span (the pCPUs of its domain at that level, ascending) and its index there. */
    private final int[][][] spanOf = new int[3][][];
    private final int[][] indexInSpan = new int[3][];
    /** Scratch: which group keys a walk has seen (by stamp) and their order. */
    private final int[] seen;
    private int stamp;
    private final int[] order;

    ForkPlacement(HostSpec host, int pcpus) {
        this.pcpus = pcpus;
        this.numa = host.numaNodes() != null && host.numaNodes().size() > 1;
        int[] core = new int[pcpus];
        int[] socket = new int[pcpus];
        int cores = 0;
        int sockets = 0;
        for (int c = 0; c < pcpus; c++) {
            core[c] = host.coreOfPcpu(c);
            socket[c] = host.socketOfPcpu(c);
            cores = Math.max(cores, core[c] + 1);
            sockets = Math.max(sockets, socket[c] + 1);
        }
        int[] self = new int[pcpus];
        for (int c = 0; c < pcpus; c++) {
            self[c] = c;
        }
        int[] everyone = new int[pcpus];
        // the span of a level is the group of its parent level; the top level spans every pCPU (key 0)
        int[][] top = {self.clone()};
        groupOf[SMT] = self;
        groupOf[MC] = core;
        groupOf[TOP] = socket;
        members[SMT] = byKey(self, pcpus);
        members[MC] = byKey(core, cores);
        members[TOP] = byKey(socket, sockets);
        spanOf[SMT] = spans(core, members[MC]);
        spanOf[MC] = spans(socket, members[TOP]);
        spanOf[TOP] = spans(everyone, top);
        for (int level = SMT; level <= TOP; level++) {
            indexInSpan[level] = new int[pcpus];
            for (int c = 0; c < pcpus; c++) {
                int[] span = spanOf[level][c];
                for (int i = 0; i < span.length; i++) {
                    indexInSpan[level][span[i]] = i;
                }
            }
        }
        int keys = Math.max(pcpus, Math.max(cores, sockets));
        this.seen = new int[keys];
        this.order = new int[keys];
    }

    /** The members of each key 0..keys-1 of {@code keyOf}, ascending. */
    private static int[][] byKey(int[] keyOf, int keys) {
        int[] count = new int[keys];
        for (int k : keyOf) {
            count[k]++;
        }
        int[][] out = new int[keys][];
        for (int k = 0; k < keys; k++) {
            out[k] = new int[count[k]];
            count[k] = 0;
        }
        for (int c = 0; c < keyOf.length; c++) {
            out[keyOf[c]][count[keyOf[c]]++] = c;
        }
        return out;
    }

    /** Each pCPU's span: the members of its key. */
    private static int[][] spans(int[] keyOf, int[][] membersByKey) {
        int[][] out = new int[keyOf.length][];
        for (int c = 0; c < keyOf.length; c++) {
            out[c] = membersByKey[keyOf[c]];
        }
        return out;
    }

    /** The pCPUs of one VM's vCPU threads, created one after the other; {@code populated} as the VMs before left it. */
    List<Integer> place(int[] populated, List<List<Integer>> hardPerVcpu) {
        int parent = hardPerVcpu.get(0).get(0);
        for (List<Integer> h : hardPerVcpu) {
            parent = Math.min(parent, h.get(0));
        }
        int[] util = populated.clone();
        Map<List<Integer>, boolean[]> masks = new IdentityHashMap<>();
        List<Integer> out = new ArrayList<>();
        for (List<Integer> hard : hardPerVcpu) {
            boolean[] allowed = masks.computeIfAbsent(hard, this::mask);
            int cpu = findIdlestCpu(parent, allowed, hard.get(0), util);
            util[cpu]++;
            out.add(cpu);
        }
        return List.copyOf(out);
    }

    private boolean[] mask(List<Integer> hard) {
        boolean[] m = new boolean[pcpus];
        for (int c : hard) {
            if (c >= 0 && c < pcpus) {
                m[c] = true;
            }
        }
        return m;
    }

    /** find_idlest_cpu from {@code parent}: down the levels to the idlest allowed group's first idle CPU. */
    private int findIdlestCpu(int parent, boolean[] allowed, int firstAllowed, int[] util) {
        int cpu = parent;
        int newCpu = parent;
        for (int level = TOP; level >= SMT; level--) {
            int groups = groupsInWrapOrder(level, cpu);
            if (groups < 2) {
                continue; // a level no wider than its child is degenerate (sd_degenerate)
            }
            int idlest = findIdlestGroup(level, groups, cpu, parent, allowed, util, numa && level == TOP);
            if (idlest < 0) {
                continue;
            }
            newCpu = firstIdleAllowed(members[level][idlest], parent, allowed, cpu);
            cpu = newCpu;
        }
        return allowed[newCpu] ? newCpu : firstAllowed;
    }

    /** Fills {@link #order} with the level's group keys, cpu's first, then by their first CPU after it (for_each_cpu_wrap). */
    private int groupsInWrapOrder(int level, int cpu) {
        int[] span = spanOf[level][cpu];
        int n = span.length;
        int start = indexInSpan[level][cpu];
        int[] keyOf = groupOf[level];
        stamp++;
        int groups = 0;
        for (int k = 0; k < n; k++) {
            int i = start + k;
            int key = keyOf[span[i < n ? i : i - n]];
            if (seen[key] != stamp) {
                seen[key] = stamp;
                order[groups++] = key;
            }
        }
        return groups;
    }

    /** find_idlest_group over the first {@code groups} keys of {@link #order}: the group key, or -1 to stay local. */
    private int findIdlestGroup(int level, int groups, int cpu, int parent, boolean[] allowed, int[] util,
            boolean numaLevel) {
        int idlest = -1;
        int idlestIdle = -1;
        int idlestUtil = 0;
        int localIdle = -1;
        int local = groupOf[level][cpu];
        for (int g = 0; g < groups; g++) {
            int key = order[g];
            int idle = 0;
            int u = 0;
            boolean any = false;
            for (int c : members[level][key]) {
                if (allowed[c]) {
                    any = true;
                    u += util[c];
                    if (c != parent) {
                        idle++;
                    }
                }
            }
            if (!any) {
                continue; // no allowed CPU in this group
            }
            if (key == local) {
                localIdle = idle;
            } else if (idlest < 0 || idle > idlestIdle || (idle == idlestIdle && u < idlestUtil)) {
                idlest = key;
                idlestIdle = idle;
                idlestUtil = u;
            }
        }
        if (idlest < 0 || localIdle < 0) {
            return idlest;
        }
        if (numaLevel && Math.abs(localIdle - idlestIdle) <= InitialPlacement.NUMA_IMBALANCE_MIN) {
            return -1;
        }
        return localIdle >= idlestIdle ? -1 : idlest;
    }

    /** find_idlest_group_cpu: the first idle allowed CPU of the group (equal idle states), else {@code fallback}. */
    private static int firstIdleAllowed(int[] group, int parent, boolean[] allowed, int fallback) {
        for (int c : group) {
            if (allowed[c] && c != parent) {
                return c;
            }
        }
        for (int c : group) {
            if (allowed[c]) {
                return c;
            }
        }
        return fallback;
    }
}
