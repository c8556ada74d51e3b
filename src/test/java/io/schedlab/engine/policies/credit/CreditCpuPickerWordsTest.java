package io.schedlab.engine.policies.credit;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.TestSpecs;
import io.schedlab.engine.model.Topology;
import io.schedlab.engine.model.Vcpu;
import io.schedlab.engine.model.Vm;
import java.util.BitSet;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * _csched_cpu_pick on one-word masks (hosts of at most 64 pCPUs) against the BitSet version: the
 * same pCPU and the same idle_bias update for random topologies, affinities, idlers and biases.
 */
class CreditCpuPickerWordsTest {

    @Test
    void wordMasksPickWhatBitSetsPick() {
        SplittableRandom random = new SplittableRandom(11);
        int[][] shapes = {{1, 1, 1}, {1, 2, 2}, {2, 2, 1}, {2, 4, 2}, {1, 8, 2}, {2, 16, 2}, {4, 4, 4}, {3, 5, 1}};
        Map<int[], Topology> topologies = new IdentityHashMap<>();
        for (int round = 0; round < 4000; round++) {
            int[] shape = shapes[random.nextInt(shapes.length)];
            Topology topology = topologies.computeIfAbsent(shape, t -> TestSpecs.topology(t[0], t[1], t[2]));
            int n = shape[0] * shape[1] * shape[2];
            CreditCpuPicker picker = new CreditCpuPicker(topology);
            Vcpu v = new Vcpu(new Vm(0, "vm", 256, 0, 1, 0), 0, 0, random.nextInt(n));
            randomMask(random, v.hardAffinity, n, true);
            if (random.nextBoolean()) {
                randomMask(random, v.softAffinity, n, false);
            }
            CreditVcpu svc = new CreditVcpu(v, null);
            svc.affinityChanged(n);
            BitSet idlers = new BitSet();
            randomMask(random, idlers, n, false);
            long idlersWord = idlers.isEmpty() ? 0 : idlers.toLongArray()[0];
            boolean ownRunqIdle = random.nextBoolean();
            boolean commit = random.nextBoolean();
            CreditPcpu[] viaBitSets = pcpus(n, random.split());
            CreditPcpu[] viaWords = pcpus(n, new SplittableRandom(0));
            for (int i = 0; i < n; i++) {
                viaWords[i].idleBias = viaBitSets[i].idleBias;
            }

            int expected = picker.pick(v, idlers, ownRunqIdle, viaBitSets, commit);
            int actual = picker.pick(svc, idlers, idlersWord, ownRunqIdle, viaWords, commit);

            assertThat(actual).as("round %d, host %dx%dx%d", round, shape[0], shape[1], shape[2]).isEqualTo(expected);
            for (int i = 0; i < n; i++) {
                assertThat(viaWords[i].idleBias).as("idle_bias of pCPU %d, round %d", i, round)
                        .isEqualTo(viaBitSets[i].idleBias);
            }
        }
    }

    private static void randomMask(SplittableRandom random, BitSet mask, int n, boolean nonEmpty) {
        int density = random.nextInt(4);
        for (int i = 0; i < n; i++) {
            if (density == 3 || random.nextInt(4) < density) {
                mask.set(i);
            }
        }
        if (nonEmpty && mask.isEmpty()) {
            mask.set(random.nextInt(n));
        }
    }

    private static CreditPcpu[] pcpus(int n, SplittableRandom random) {
        CreditPcpu[] pcs = new CreditPcpu[n];
        for (int i = 0; i < n; i++) {
            pcs[i] = new CreditPcpu(i);
            pcs[i].idleBias = random.nextInt(n);
        }
        return pcs;
    }
}
