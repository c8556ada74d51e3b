package io.schedlab.engine.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/** The event heap pops in (time, insertion order), like a reference PriorityQueue, also after compaction. */
class EventQueueProperties {

    private record Ref(long time, long seq, long payload) {
    }

    @Property(tries = 50)
    void popsInTimeThenInsertionOrder(@ForAll long seed, @ForAll @IntRange(min = 1, max = 3000) int ops) {
        SplittableRandom r = new SplittableRandom(seed);
        EventQueue q = new EventQueue(16);
        PriorityQueue<Ref> ref = new PriorityQueue<>(Comparator.comparingLong(Ref::time).thenComparingLong(Ref::seq));
        long seq = 0;
        long now = 0;
        for (int i = 0; i < ops; i++) {
            if (ref.isEmpty() || r.nextInt(3) > 0) {
                long t = now + r.nextInt(50); // many equal times
                long payload = EventQueue.pack(r.nextInt(8), r.nextInt(1 << 20), r.nextInt());
                q.push(t, payload);
                ref.add(new Ref(t, seq++, payload));
            } else {
                Ref e = ref.poll();
                assertThat(q.pop()).isEqualTo(e.payload());
                assertThat(q.poppedTime()).isEqualTo(e.time());
                now = e.time();
            }
            // size and peek right after a pop see the popped event gone (it leaves the arrays lazily)
            assertThat(q.size()).isEqualTo(ref.size());
            if (!ref.isEmpty() && r.nextInt(4) == 0) {
                assertThat(q.peekTime()).isEqualTo(ref.peek().time());
            }
        }
        assertThat(q.size()).isEqualTo(ref.size());
    }

    @Property(tries = 30)
    void compactionRightAfterAPopKeepsTheRest(@ForAll long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        EventQueue q = new EventQueue(16);
        PriorityQueue<Ref> ref = new PriorityQueue<>(Comparator.comparingLong(Ref::time).thenComparingLong(Ref::seq));
        for (int i = 0; i < 300; i++) {
            long t = r.nextInt(100);
            long payload = EventQueue.pack(r.nextBoolean() ? 1 : 2, i, 0);
            q.push(t, payload);
            ref.add(new Ref(t, i, payload));
        }
        assertThat(q.pop()).isEqualTo(ref.poll().payload());
        q.removeStale(p -> EventQueue.kind(p) == 1);
        ref.removeIf(e -> EventQueue.kind(e.payload()) == 1);
        assertThat(q.size()).isEqualTo(ref.size());
        while (!ref.isEmpty()) {
            assertThat(q.pop()).isEqualTo(ref.poll().payload());
        }
        assertThat(q.isEmpty()).isTrue();
    }

    @Property(tries = 30)
    void removingStaleEventsKeepsTheOrderOfTheRest(@ForAll long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        EventQueue q = new EventQueue(16);
        List<long[]> kept = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            long t = r.nextInt(100);
            boolean stale = r.nextBoolean();
            long payload = EventQueue.pack(stale ? 1 : 2, i, 0);
            q.push(t, payload);
            if (!stale) {
                kept.add(new long[] {t, i, payload});
            }
        }
        q.removeStale(p -> EventQueue.kind(p) == 1);
        kept.sort(Comparator.<long[]>comparingLong(a -> a[0]).thenComparingLong(a -> a[1]));
        assertThat(q.size()).isEqualTo(kept.size());
        for (long[] k : kept) {
            assertThat(q.pop()).isEqualTo(k[2]);
        }
    }

    @Property(tries = 50)
    void packRoundTrips(@ForAll @IntRange(min = 0, max = 15) int kind, @ForAll @IntRange(min = 0, max = (1 << 28) - 1) int target,
            @ForAll int version) {
        long p = EventQueue.pack(kind, target, version);
        assertThat(EventQueue.kind(p)).isEqualTo(kind);
        assertThat(EventQueue.target(p)).isEqualTo(target);
        assertThat(EventQueue.version(p)).isEqualTo(version);
    }
}
