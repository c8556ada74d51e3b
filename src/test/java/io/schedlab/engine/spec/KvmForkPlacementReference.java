package io.schedlab.engine.spec;

import java.util.ArrayList;
import java.util.List;

/**
 * The plain fork placement the engine used before {@link ForkPlacement}: every level's span, groups and
 * affinity tests rebuilt from lists for each vCPU (O(pCPUs^2) per level). Kept as the reference of
 * {@code ForkPlacementDifferentialTest}.
 */
final class KvmForkPlacementReference {
    private KvmForkPlacementReference() {
    }

    static List<Integer> kvmForkPlacement(HostSpec host, int pcpus, int[] populated, List<List<Integer>> hardPerVcpu) {
        int parent = hardPerVcpu.get(0).get(0);
        for (List<Integer> h : hardPerVcpu) {
            parent = Math.min(parent, h.get(0));
        }
        int[] util = populated.clone();
        List<Integer> out = new ArrayList<>();
        for (List<Integer> hard : hardPerVcpu) {
            int cpu = findIdlestCpu(host, pcpus, parent, hard, util);
            util[cpu]++;
            out.add(cpu);
        }
        return List.copyOf(out);
    }

    /** Domain levels bottom-up as a key per CPU: SMT (core), MC (socket), then the whole host (NUMA or PKG). */
    private static int levelKey(HostSpec host, int level, int cpu) {
        return switch (level) {
            case 0 -> host.coreOfPcpu(cpu);
            case 1 -> host.socketOfPcpu(cpu);
            default -> 0;
        };
    }

    /** The group (child-level key) of {@code cpu} within a level: single CPUs under SMT, cores under MC, sockets above. */
    private static int groupKey(HostSpec host, int level, int cpu) {
        return level == 0 ? cpu : levelKey(host, level - 1, cpu);
    }

    private static int findIdlestCpu(HostSpec host, int pcpus, int parent, List<Integer> allowed, int[] util) {
        boolean numa = host.numaNodes() != null && host.numaNodes().size() > 1;
        int cpu = parent;
        int newCpu = parent;
        for (int level = 2; level >= 0; level--) {
            List<Integer> span = new ArrayList<>();
            for (int c = 0; c < pcpus; c++) {
                if (levelKey(host, level, c) == levelKey(host, level, cpu)) {
                    span.add(c);
                }
            }
            List<List<Integer>> groups = groupsInWrapOrder(host, level, span, cpu);
            if (groups.size() < 2) {
                continue; // a level no wider than its child is degenerate (sd_degenerate)
            }
            List<Integer> idlest = findIdlestGroup(groups, cpu, parent, allowed, util, numa && level == 2);
            if (idlest == null) {
                continue;
            }
            newCpu = firstIdleAllowed(idlest, parent, allowed, cpu);
            cpu = newCpu;
        }
        if (!allowed.contains(newCpu)) {
            newCpu = allowed.get(0);
        }
        return newCpu;
    }

    /** The level's groups, the one holding {@code cpu} first, then by their first CPU after it (for_each_cpu_wrap). */
    private static List<List<Integer>> groupsInWrapOrder(HostSpec host, int level, List<Integer> span, int cpu) {
        List<List<Integer>> groups = new ArrayList<>();
        List<Integer> keys = new ArrayList<>();
        int n = span.size();
        int start = Math.max(0, span.indexOf(cpu));
        for (int k = 0; k < n; k++) {
            int c = span.get((start + k) % n);
            int key = groupKey(host, level, c);
            int idx = keys.indexOf(key);
            if (idx < 0) {
                keys.add(key);
                groups.add(new ArrayList<>());
                idx = keys.size() - 1;
            }
            groups.get(idx).add(c);
        }
        for (List<Integer> g : groups) {
            g.sort(null);
        }
        return groups;
    }

    private static List<Integer> findIdlestGroup(List<List<Integer>> groups, int cpu, int parent, List<Integer> allowed,
            int[] util, boolean numaLevel) {
        List<Integer> idlest = null;
        int idlestIdle = -1;
        int idlestUtil = 0;
        int localIdle = -1;
        for (List<Integer> g : groups) {
            int idle = 0;
            int u = 0;
            boolean any = false;
            for (int c : g) {
                if (allowed.contains(c)) {
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
            if (g.contains(cpu)) {
                localIdle = idle;
            } else if (idlest == null || idle > idlestIdle || (idle == idlestIdle && u < idlestUtil)) {
                idlest = g;
                idlestIdle = idle;
                idlestUtil = u;
            }
        }
        if (idlest == null || localIdle < 0) {
            return idlest;
        }
        if (numaLevel && Math.abs(localIdle - idlestIdle) <= InitialPlacement.NUMA_IMBALANCE_MIN) {
            return null;
        }
        return localIdle >= idlestIdle ? null : idlest;
    }

    /** find_idlest_group_cpu: the first idle allowed CPU of the group (equal idle states), else {@code fallback}. */
    private static int firstIdleAllowed(List<Integer> group, int parent, List<Integer> allowed, int fallback) {
        for (int c : group) {
            if (allowed.contains(c) && c != parent) {
                return c;
            }
        }
        for (int c : group) {
            if (allowed.contains(c)) {
                return c;
            }
        }
        return fallback;
    }
}
