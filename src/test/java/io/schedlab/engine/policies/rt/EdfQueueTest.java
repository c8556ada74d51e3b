package io.schedlab.engine.policies.rt;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link EdfQueue} keeps the order a plain list gives (binary-search insertion, removal by identity), also
 * when keys change in place, after thousands of insertions at one spot (which force its labels to be spread
 * again) and with entries removed that it does not hold.
 */
class EdfQueueTest {
    private static final class Entry {
        long key;
        long label;

        Entry(long key) {
            this.key = key;
        }
    }

    private static long earlierFirst(Entry a, Entry b) {
        return b.key - a.key;
    }

    @Test
    void keepsThePlainListsOrderUnderRandomInsertionsRemovalsAndKeyChanges() {
        SplittableRandom r = new SplittableRandom(7);
        EdfQueue<Entry> q = new EdfQueue<>(EdfQueueTest::earlierFirst, e -> e.label, (e, l) -> e.label = l);
        List<Entry> plain = new ArrayList<>();
        List<Entry> pool = new ArrayList<>();
        long plainWork = 0;
        int frontInserts = 0;
        for (int step = 0; step < 60_000; step++) {
            int op = r.nextInt(10);
            if (op < 5 || plain.isEmpty()) {
                // mostly at the front (an earlier key than any), as new earliest deadlines do
                Entry e = new Entry(step % 3 == 0 ? -step : r.nextInt(50));
                pool.add(e);
                int pos = plainInsertPosition(plain, e);
                plain.add(pos, e);
                plainWork += pos + 1;
                frontInserts += q.insert(e) ? 1 : 0;
                assertThat(pos == 0).isEqualTo(plain.get(0) == e);
            } else if (op < 8) {
                Entry e = plain.get(r.nextInt(plain.size()));
                if (r.nextBoolean()) {
                    e.key += r.nextInt(20) - 10; // a priority changed in place (burn_budget's level)
                }
                boolean wasFront = plain.get(0) == e;
                plain.remove(e);
                plainWork++;
                assertThat(q.remove(e)).isEqualTo(wasFront);
            } else {
                Entry absent = pool.get(r.nextInt(pool.size()));
                if (!plain.contains(absent)) {
                    plainWork++;
                    assertThat(q.remove(absent)).isFalse();
                }
            }
            assertThat(q.size()).isEqualTo(plain.size());
        }
        for (int i = 0; i < plain.size(); i++) {
            assertThat(q.get(i)).isSameAs(plain.get(i));
        }
        assertThat(q.takeWork()).isEqualTo(plainWork);
        assertThat(frontInserts).as("the front changes often").isGreaterThan(5_000);
    }

    private static int plainInsertPosition(List<Entry> list, Entry e) {
        int lo = 0;
        int hi = list.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (earlierFirst(e, list.get(mid)) > 0) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return lo;
    }
}
