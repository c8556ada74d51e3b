package io.schedlab.engine.spec;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** SpecNormalizer.sortedDistinct against a plain tree set, on random lists (sorted or not, repeats, nulls). */
class SortedDistinctTest {
    @Test
    void sameAsATreeSetOnRandomLists() {
        Random random = new Random(6);
        for (int round = 0; round < 2_000; round++) {
            int size = random.nextInt(40);
            int range = 1 + random.nextInt(64);
            List<Integer> in = new ArrayList<>();
            for (int k = 0; k < size; k++) {
                int kind = random.nextInt(20);
                in.add(kind == 0 ? null : kind == 1 ? -random.nextInt(range) : random.nextInt(range));
            }
            if (random.nextBoolean()) {
                in.sort(java.util.Comparator.nullsFirst(java.util.Comparator.naturalOrder()));
            }
            assertThat(SpecNormalizer.sortedDistinct(in)).as("%s", in).containsExactlyElementsOf(plain(in));
        }
    }

    @Test
    void anAscendingListComesBackEqualAndUnmodifiable() {
        List<Integer> all = SpecNormalizer.allPcpus(1024);
        List<Integer> out = SpecNormalizer.sortedDistinct(new ArrayList<>(all));
        assertThat(out).isEqualTo(all);
        assertThat(SpecNormalizer.sortedDistinct(List.of(3, 1, 3, 2))).containsExactly(1, 2, 3);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> out.add(5))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    private static List<Integer> plain(List<Integer> in) {
        TreeSet<Integer> set = new TreeSet<>();
        for (Integer i : in) {
            if (i != null) {
                set.add(i);
            }
        }
        return List.copyOf(set);
    }
}
