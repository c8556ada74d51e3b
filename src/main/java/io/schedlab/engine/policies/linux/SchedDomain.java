package io.schedlab.engine.policies.linux;

import io.schedlab.engine.model.Pcpu;
import io.schedlab.engine.model.Topology;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToIntFunction;

/**
 * One level of a CPU's scheduling-domain hierarchy (kernel/sched/topology.c sd_init and the default
 * x86 topology SMT -> MC -> PKG -> NUMA): the CPUs it spans, its groups (the child level's spans),
 * and the balancing constants of that level. A level that spans no more than its child is dropped, as
 * the kernel's sd_degenerate does (PKG disappears when a package is one NUMA node, as here).
 */
final class SchedDomain {
    final String level;
    /** Group index of each CPU in the domain's span, -1 outside it. */
    final int[] groupOf;
    /** CPUs of each group. */
    final List<int[]> groups;
    final int[] span;
    final int imbalancePct;
    final int cacheNiceTries;
    /** min_interval = sd_weight ms (balance_interval starts there). */
    final long intervalNanos;

    private SchedDomain(String level, int[] span, List<int[]> groups, int nP, int imbalancePct, int cacheNiceTries) {
        this.level = level;
        this.span = span;
        this.groups = groups;
        this.groupOf = new int[nP];
        java.util.Arrays.fill(groupOf, -1);
        for (int g = 0; g < groups.size(); g++) {
            for (int c : groups.get(g)) {
                groupOf[c] = g;
            }
        }
        this.imbalancePct = imbalancePct;
        this.cacheNiceTries = cacheNiceTries;
        this.intervalNanos = span.length * 1_000_000L;
    }

    /** The domains of CPU {@code cpu}, bottom-up, built for it alone ({@link #forAll} builds every CPU's at once). */
    static List<SchedDomain> of(Topology topo, int cpu, LinuxParams p) {
        int nP = topo.size();
        Pcpu me = topo.pcpu(cpu);
        List<SchedDomain> out = new ArrayList<>();
        int[] smt = spanWhere(topo, x -> x.core == me.core ? 1 : 0);
        int[] mc = spanWhere(topo, x -> x.socket == me.socket ? 1 : 0);
        int[] all = spanWhere(topo, x -> 1);
        int[] childSpan = new int[] {cpu};
        if (smt.length > childSpan.length) {
            out.add(new SchedDomain("SMT", smt, singletons(smt), nP, p.imbalancePctSmt, 0));
            childSpan = smt;
        }
        if (mc.length > childSpan.length) {
            out.add(new SchedDomain("MC", mc, groupsBy(topo, mc, x -> x.core), nP, p.imbalancePct, p.cacheNiceTriesLlc));
            childSpan = mc;
        }
        if (all.length > childSpan.length) {
            boolean numa = topo.numaNodes() > 1;
            out.add(new SchedDomain(numa ? "NUMA" : "PKG", all,
                    groupsBy(topo, all, numa ? x -> x.numaNode : x -> x.socket), nP, p.imbalancePct,
                    numa ? p.cacheNiceTriesNuma : p.cacheNiceTriesLlc));
        }
        return out;
    }

    /**
     * The domains of every CPU, bottom-up ({@code [cpu][level]}), the same as {@link #of} for each CPU but built
     * once per span: CPUs whose domain at a level spans the same CPUs share one (immutable) instance, as the
     * kernel's CPUs share their sched_group structures (kernel/sched/topology.c build_sched_groups, get_group).
     * Built per CPU, the whole host took O(CPUs^2) time and memory (every level of every CPU scanned and indexed
     * every CPU); this takes O(CPUs) per distinct span.
     */
    static SchedDomain[][] forAll(Topology topo, LinuxParams p) {
        int nP = topo.size();
        Map<Integer, SchedDomain> smtByCore = new HashMap<>();
        Map<Integer, SchedDomain> mcBySocket = new HashMap<>();
        Map<Integer, int[]> coreSpans = spansBy(topo, x -> x.core);
        Map<Integer, int[]> socketSpans = spansBy(topo, x -> x.socket);
        int[] all = spanWhere(topo, x -> 1);
        SchedDomain top = null;
        SchedDomain[][] out = new SchedDomain[nP][];
        for (int cpu = 0; cpu < nP; cpu++) {
            Pcpu me = topo.pcpu(cpu);
            List<SchedDomain> ds = new ArrayList<>(3);
            int[] smt = coreSpans.get(me.core);
            int[] mc = socketSpans.get(me.socket);
            int childLength = 1;
            if (smt.length > childLength) {
                ds.add(smtByCore.computeIfAbsent(me.core,
                        k -> new SchedDomain("SMT", smt, singletons(smt), nP, p.imbalancePctSmt, 0)));
                childLength = smt.length;
            }
            if (mc.length > childLength) {
                ds.add(mcBySocket.computeIfAbsent(me.socket, k -> new SchedDomain("MC", mc,
                        groupsBy(topo, mc, x -> x.core), nP, p.imbalancePct, p.cacheNiceTriesLlc)));
                childLength = mc.length;
            }
            if (all.length > childLength) {
                if (top == null) {
                    boolean numa = topo.numaNodes() > 1;
                    top = new SchedDomain(numa ? "NUMA" : "PKG", all,
                            groupsBy(topo, all, numa ? x -> x.numaNode : x -> x.socket), nP, p.imbalancePct,
                            numa ? p.cacheNiceTriesNuma : p.cacheNiceTriesLlc);
                }
                ds.add(top);
            }
            out[cpu] = ds.toArray(new SchedDomain[0]);
        }
        return out;
    }

    /** The CPUs of each key's value, in CPU order (one pass over the host). */
    private static Map<Integer, int[]> spansBy(Topology topo, ToIntFunction<Pcpu> key) {
        Map<Integer, List<Integer>> lists = new HashMap<>();
        for (Pcpu x : topo.pcpus()) {
            lists.computeIfAbsent(key.applyAsInt(x), k -> new ArrayList<>()).add(x.id);
        }
        Map<Integer, int[]> out = new HashMap<>();
        lists.forEach((k, v) -> out.put(k, v.stream().mapToInt(Integer::intValue).toArray()));
        return out;
    }

    private static int[] spanWhere(Topology topo, ToIntFunction<Pcpu> in) {
        return topo.pcpus().stream().filter(x -> in.applyAsInt(x) == 1).mapToInt(x -> x.id).toArray();
    }

    private static List<int[]> singletons(int[] span) {
        List<int[]> out = new ArrayList<>();
        for (int c : span) {
            out.add(new int[] {c});
        }
        return out;
    }

    private static List<int[]> groupsBy(Topology topo, int[] span, ToIntFunction<Pcpu> key) {
        java.util.TreeMap<Integer, List<Integer>> byKey = new java.util.TreeMap<>();
        for (int c : span) {
            byKey.computeIfAbsent(key.applyAsInt(topo.pcpu(c)), k -> new ArrayList<>()).add(c);
        }
        List<int[]> out = new ArrayList<>();
        for (List<Integer> g : byKey.values()) {
            out.add(g.stream().mapToInt(Integer::intValue).toArray());
        }
        return out;
    }
}
