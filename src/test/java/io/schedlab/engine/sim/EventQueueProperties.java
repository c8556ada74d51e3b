package io.schedlab.engine.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.ExploreWithRandomSeeds;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import org.junit.jupiter.api.Test;
import net.jqwik.api.constraints.IntRange;

/**
 * The event heap pops in (time, insertion order), like a reference PriorityQueue, also after
 * compaction, after its sequence numbers run out and are renumbered, and after it moves to the
 * wide (time, sequence) heap.
 */
@AddLifecycleHook(ExploreWithRandomSeeds.class)
class EventQueueProperties {

    private record Ref(long time, long seq, long payload) {
    }

    private static void pushBoth(EventQueue q, PriorityQueue<Ref> ref, long t, long payload, long seq) {
        q.push(t, payload);
        ref.add(new Ref(t, seq, payload));
    }

    /** Pops both, checks they agree on payload and time, and returns the time. */
    private static long popBoth(EventQueue q, PriorityQueue<Ref> ref) {
        Ref e = ref.poll();
        assertThat(q.pop()).isEqualTo(e.payload());
        assertThat(q.poppedTime()).isEqualTo(e.time());
        return e.time();
    }

    /** Horizon of the small queues below: 2^20 ns, so times up to it order exactly. */
    private static final long HORIZON = 1 << 20;

    @Property(seed = "20261205", tries = 50)
    void popsInTimeThenInsertionOrder(@ForAll long seed, @ForAll @IntRange(min = 1, max = 3000) int ops) {
        SplittableRandom r = new SplittableRandom(seed);
        EventQueue q = new EventQueue(16, HORIZON);
        PriorityQueue<Ref> ref = new PriorityQueue<>(Comparator.comparingLong(Ref::time).thenComparingLong(Ref::seq));
        long seq = 0;
        long now = 0;
        for (int i = 0; i < ops; i++) {
            if (ref.isEmpty() || r.nextInt(3) > 0) {
                long t = now + r.nextInt(50); // many equal times
                pushBoth(q, ref, t, EventQueue.pack(r.nextInt(8), r.nextInt(1 << 20), r.nextInt()), seq++);
            } else {
                now = popBoth(q, ref);
            }
            // size and peek right after a pop see the popped event gone (it leaves the arrays lazily)
            assertThat(q.size()).isEqualTo(ref.size());
            if (!ref.isEmpty() && r.nextInt(4) == 0) {
                assertThat(q.peekTime()).isEqualTo(ref.peek().time());
            }
        }
        assertThat(q.size()).isEqualTo(ref.size());
    }

    @Property(seed = "20261206", tries = 30)
    void compactionRightAfterAPopKeepsTheRest(@ForAll long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        EventQueue q = new EventQueue(16, HORIZON);
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

    @Property(seed = "20261207", tries = 30)
    void removingStaleEventsKeepsTheOrderOfTheRest(@ForAll long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        EventQueue q = new EventQueue(16, HORIZON);
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

    /**
     * With 12 sequence bits the numbers run out every few thousand pushes: the queued events are
     * renumbered (few equal times) or, when one instant holds over half the range, the queue moves
     * to the wide heap; the order is the reference's throughout, compaction included.
     */
    @Property(seed = "20261208", tries = 40)
    void orderSurvivesRenumberingAndTheMoveToTheWideHeap(@ForAll long seed,
            @ForAll @IntRange(min = 1, max = 3000) int crowd, @ForAll @IntRange(min = 2, max = 60) int spread) {
        SplittableRandom r = new SplittableRandom(seed);
        EventQueue q = new EventQueue(16, HORIZON, EventQueue.MIN_SEQ_BITS);
        PriorityQueue<Ref> ref = new PriorityQueue<>(Comparator.comparingLong(Ref::time).thenComparingLong(Ref::seq));
        long seq = 0;
        long now = 0;
        // a crowd of events at one instant (more than 2048 of them forces the wide heap)
        for (int i = 0; i < crowd; i++) {
            long payload = EventQueue.pack(1, i, 0);
            q.push(1000, payload);
            ref.add(new Ref(1000, seq++, payload));
        }
        for (int i = 0; i < 20_000; i++) {
            if (ref.isEmpty() || r.nextInt(2) == 0) {
                pushBoth(q, ref, now + r.nextInt(spread), EventQueue.pack(r.nextInt(8), i, r.nextInt()), seq++);
            } else if (r.nextInt(500) == 0) {
                q.removeStale(p -> EventQueue.kind(p) == 3);
                ref.removeIf(e -> EventQueue.kind(e.payload()) == 3);
            } else {
                now = popBoth(q, ref);
            }
            assertThat(q.size()).isEqualTo(ref.size());
        }
        while (!ref.isEmpty()) {
            assertThat(q.pop()).isEqualTo(ref.poll().payload());
        }
    }

    @Test
    void runningOutOfSequenceNumbersRenumbersOrMovesToTheWideHeap() {
        for (int crowd : new int[] {2000, 3000}) {
            EventQueue q = new EventQueue(16, HORIZON, EventQueue.MIN_SEQ_BITS);
            for (int i = 0; i < crowd; i++) {
                q.push(1000, EventQueue.pack(1, i, 0));
            }
            for (int i = 0; i < 5000 - crowd; i++) { // past 4096 pushes, all still queued
                q.push(i % 7, EventQueue.pack(2, i, 0));
            }
            assertThat(q.isWide()).as("crowd of %d at one instant", crowd).isEqualTo(crowd > 2048);
            for (int t = 0; t < 7; t++) {
                for (int i = t; i < 5000 - crowd; i += 7) {
                    assertThat(q.pop()).isEqualTo(EventQueue.pack(2, i, 0));
                }
            }
            for (int i = 0; i < crowd; i++) {
                assertThat(q.pop()).isEqualTo(EventQueue.pack(1, i, 0));
            }
            assertThat(q.isEmpty()).isTrue();
        }
    }

    @Test
    void eventsBeyondTheHorizonStayBehindItInInsertionOrder() {
        EventQueue q = new EventQueue(16, 1000);
        q.push(5_000_000, EventQueue.pack(1, 1, 0));
        q.push(2_000, EventQueue.pack(1, 2, 0));
        q.push(999, EventQueue.pack(1, 3, 0));
        assertThat(q.isWide()).isFalse();
        assertThat(q.pop()).isEqualTo(EventQueue.pack(1, 3, 0));
        assertThat(q.poppedTime()).isEqualTo(999);
        assertThat(q.peekTime()).isGreaterThanOrEqualTo(1000);
        assertThat(q.pop()).isEqualTo(EventQueue.pack(1, 1, 0)); // both beyond: insertion order
        assertThat(q.pop()).isEqualTo(EventQueue.pack(1, 2, 0));
    }

    @Test
    void aHorizonTooLongForKeysStartsWide() {
        EventQueue q = new EventQueue(16, Long.MAX_VALUE / 2);
        assertThat(q.isWide()).isTrue();
        q.push(Long.MAX_VALUE / 2, EventQueue.pack(1, 1, 0));
        q.push(7, EventQueue.pack(1, 2, 0));
        assertThat(q.pop()).isEqualTo(EventQueue.pack(1, 2, 0));
        assertThat(q.pop()).isEqualTo(EventQueue.pack(1, 1, 0));
        assertThat(q.poppedTime()).isEqualTo(Long.MAX_VALUE / 2);
    }

    @Test
    void negativeTimesAreRefused() {
        EventQueue q = new EventQueue(16, HORIZON);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> q.push(-1, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-1");
    }

    @Property(seed = "20261209", tries = 50)
    void packRoundTrips(@ForAll @IntRange(min = 0, max = 15) int kind, @ForAll @IntRange(min = 0, max = (1 << 28) - 1) int target,
            @ForAll int version) {
        long p = EventQueue.pack(kind, target, version);
        assertThat(EventQueue.kind(p)).isEqualTo(kind);
        assertThat(EventQueue.target(p)).isEqualTo(target);
        assertThat(EventQueue.version(p)).isEqualTo(version);
    }
}
