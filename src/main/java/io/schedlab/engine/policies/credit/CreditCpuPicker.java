package io.schedlab.engine.policies.credit;

import io.schedlab.engine.model.Pcpu;
import io.schedlab.engine.model.Topology;
import io.schedlab.engine.model.Vcpu;
import java.util.BitSet;

/**
 * Placement of a vCPU, after credit.c {@code _csched_cpu_pick}: per balance step (soft, then hard
 * affinity) prefer the current pCPU, then an idle one; among idle pCPUs move to the one whose core
 * (same socket) has more idle threads, or across sockets to one whose socket is more than twice as
 * idle. Stops at the first step that finds an idle pCPU.
 */
final class CreditCpuPicker {
    private final Topology topo;
    private final int n;
    private final BitSet[] siblingMask;
    private final BitSet[] socketMask;
    private final BitSet scratchCpus = new BitSet();
    private final BitSet scratchIdlers = new BitSet();
    private final BitSet scratchNxt = new BitSet();

    CreditCpuPicker(Topology topo) {
        this.topo = topo;
        this.n = topo.size();
        this.siblingMask = new BitSet[n];
        this.socketMask = new BitSet[n];
        for (int i = 0; i < n; i++) {
            siblingMask[i] = new BitSet(n);
            socketMask[i] = new BitSet(n);
            for (int j = 0; j < n; j++) {
                if (topo.sameCore(i, j)) {
                    siblingMask[i].set(j);
                }
                if (topo.sameSocket(i, j)) {
                    socketMask[i].set(j);
                }
            }
        }
    }

    /**
     * @param idlersIn the scheduler's idle pCPU mask (prv->idlers)
     * @param ownRunqIdle whether v's current pCPU would be idle without v (is_runq_idle)
     * @param idleBias per-pCPU idle_bias, updated when {@code commit}
     */
    int pick(Vcpu v, BitSet idlersIn, boolean ownRunqIdle, CreditPcpu[] pcpus, boolean commit) {
        int cpu = v.processor;
        CreditPcpu spc = null;
        BitSet cpus = scratchCpus;
        BitSet idlers = scratchIdlers;
        for (int step = AffinityBalance.SOFT; step <= AffinityBalance.HARD; step++) {
            if (step == AffinityBalance.SOFT && AffinityBalance.skip(v, step)) {
                continue;
            }
            cpus.clear();
            cpus.or(v.hardAffinity);
            if (step == AffinityBalance.SOFT) {
                cpus.and(v.softAffinity);
            }
            if (cpus.length() > n) {
                cpus.clear(n, cpus.length());
            }
            if (cpus.isEmpty()) {
                continue;
            }
            // If present, prefer v's current processor.
            cpu = cpus.get(cpu) ? cpu : AffinityBalance.cycle(cpu, cpus, n);
            idlers.clear();
            idlers.or(idlersIn);
            if (v.processor == cpu && ownRunqIdle) {
                idlers.set(cpu);
            }
            cpus.and(idlers);
            if (!cpus.get(cpu) && !cpus.isEmpty()) {
                cpu = AffinityBalance.cycle(cpu, cpus, n);
            }
            cpus.clear(cpu);
            while (!cpus.isEmpty()) {
                int nxt = AffinityBalance.cycle(cpu, cpus, n);
                int migrateFactor;
                BitSet cpuGroup;
                BitSet nxtGroup;
                if (socketMask[nxt].get(cpu)) {
                    // Same socket: compare idle threads of the two cores.
                    migrateFactor = 1;
                    cpuGroup = siblingMask[cpu];
                    nxtGroup = siblingMask[nxt];
                } else {
                    // Different sockets: move only if the other socket is twice as idle.
                    migrateFactor = 2;
                    cpuGroup = socketMask[cpu];
                    nxtGroup = socketMask[nxt];
                }
                int weightCpu = countBoth(idlers, cpuGroup);
                int weightNxt = countBoth(idlers, nxtGroup);
                BitSet nxtIdlers = scratchNxt;
                nxtIdlers.clear();
                nxtIdlers.or(idlers);
                nxtIdlers.and(nxtGroup);
                if (weightCpu * migrateFactor < weightNxt) {
                    nxtIdlers.and(cpus);
                    spc = pcpus[nxt];
                    cpu = AffinityBalance.cycle(spc.idleBias, nxtIdlers, n);
                    cpus.andNot(siblingMask[cpu]);
                } else {
                    cpus.andNot(nxtIdlers);
                }
            }
            if (idlers.get(cpu)) {
                break;
            }
        }
        if (commit && spc != null) {
            spc.idleBias = cpu;
        }
        return cpu;
    }

    private static int countBoth(BitSet a, BitSet group) {
        int c = 0;
        for (int i = group.nextSetBit(0); i >= 0; i = group.nextSetBit(i + 1)) {
            if (a.get(i)) {
                c++;
            }
        }
        return c;
    }

    Pcpu pcpu(int id) {
        return topo.pcpu(id);
    }
}
