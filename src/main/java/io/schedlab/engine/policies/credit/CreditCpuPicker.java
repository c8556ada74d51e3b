package io.schedlab.engine.policies.credit;

import io.schedlab.engine.model.Pcpu;
import io.schedlab.engine.model.Topology;
import io.schedlab.engine.model.Vcpu;
import io.schedlab.engine.policies.xen.AffinityBalance;
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
    /** siblingMask and socketMask as words, on hosts of at most 64 pCPUs (else null). */
    private final long[] siblingWord;
    private final long[] socketWord;

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
        siblingWord = n <= Long.SIZE ? new long[n] : null;
        socketWord = n <= Long.SIZE ? new long[n] : null;
        for (int i = 0; siblingWord != null && i < n; i++) {
            for (int j = 0; j < n; j++) {
                siblingWord[i] |= siblingMask[i].get(j) ? 1L << j : 0;
                socketWord[i] |= socketMask[i].get(j) ? 1L << j : 0;
            }
        }
    }

    /**
     * The pick for svc's vCPU: on hosts of at most 64 pCPUs with one-word masks ({@code idlersWord}
     * = {@code idlersIn}, the vCPU's affinity words from {@link CreditVcpu#affinityChanged}), else
     * with BitSets; both follow the same steps and give the same pCPU.
     */
    int pick(CreditVcpu svc, BitSet idlersIn, long idlersWord, boolean ownRunqIdle, CreditPcpu[] pcpus,
            boolean commit) {
        return siblingWord != null ? pickWords(svc, idlersWord, ownRunqIdle, pcpus, commit)
                : pick(svc.vcpu, idlersIn, ownRunqIdle, pcpus, commit);
    }

    /** {@link #pick(Vcpu, BitSet, boolean, CreditPcpu[], boolean)} with one-word masks, step for step. */
    private int pickWords(CreditVcpu svc, long idlersIn, boolean ownRunqIdle, CreditPcpu[] pcpus, boolean commit) {
        assert svc.affinityWordsCurrent(n) : svc.vcpu + ": affinity changed without affinityChanged()";
        Vcpu v = svc.vcpu;
        int cpu = v.processor;
        CreditPcpu spc = null;
        for (int step = AffinityBalance.SOFT; step <= AffinityBalance.HARD; step++) {
            if (step == AffinityBalance.SOFT && !svc.softUseful) {
                continue;
            }
            long cpus = step == AffinityBalance.SOFT ? svc.hardWord & svc.softWord : svc.hardWord;
            if (cpus == 0) {
                continue;
            }
            // If present, prefer v's current processor.
            cpu = has(cpus, cpu) ? cpu : AffinityBalance.cycle(cpu, cpus);
            long idlers = idlersIn;
            if (v.processor == cpu && ownRunqIdle) {
                idlers |= 1L << cpu;
            }
            cpus &= idlers;
            if (!has(cpus, cpu) && cpus != 0) {
                cpu = AffinityBalance.cycle(cpu, cpus);
            }
            cpus &= ~(1L << cpu);
            while (cpus != 0) {
                int nxt = AffinityBalance.cycle(cpu, cpus);
                int migrateFactor;
                long cpuGroup;
                long nxtGroup;
                if (has(socketWord[nxt], cpu)) {
                    migrateFactor = 1;
                    cpuGroup = siblingWord[cpu];
                    nxtGroup = siblingWord[nxt];
                } else {
                    migrateFactor = 2;
                    cpuGroup = socketWord[cpu];
                    nxtGroup = socketWord[nxt];
                }
                int weightCpu = Long.bitCount(idlers & cpuGroup);
                int weightNxt = Long.bitCount(idlers & nxtGroup);
                long nxtIdlers = idlers & nxtGroup;
                if (weightCpu * migrateFactor < weightNxt) {
                    nxtIdlers &= cpus;
                    spc = pcpus[nxt];
                    cpu = AffinityBalance.cycle(spc.idleBias, nxtIdlers);
                    cpus &= ~siblingWord[cpu];
                } else {
                    cpus &= ~nxtIdlers;
                }
            }
            if (has(idlers, cpu)) {
                break;
            }
        }
        if (commit && spc != null) {
            spc.idleBias = cpu;
        }
        return cpu;
    }

    private static boolean has(long word, int bit) {
        return (word & (1L << bit)) != 0;
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
