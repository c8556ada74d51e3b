package io.schedlab.engine.sim;

import java.util.Comparator;
import java.util.PriorityQueue;

/**
 * {@link EventQueue}'s fallback for a run whose one-long keys ran out of sequence bits (very many
 * events at one instant of a very long run): a {@link PriorityQueue} of (time, insertion sequence,
 * payload) entries in the same order. Slower (an entry per event), and only ever used then.
 */
final class WideEventHeap {
    private record Entry(long time, long seq, long payload) {
    }

    private static final Comparator<Entry> ORDER = Comparator.comparingLong(Entry::time).thenComparingLong(Entry::seq);

    private final PriorityQueue<Entry> heap;
    private long nextSeq;
    private long poppedTime;

    WideEventHeap(int initialCapacity) {
        heap = new PriorityQueue<>(Math.max(16, initialCapacity), ORDER);
    }

    int size() {
        return heap.size();
    }

    /** Time of the earliest event; only valid when not empty. */
    long peekTime() {
        return heap.peek().time();
    }

    /** Time of the event last returned by {@link #pop}. */
    long poppedTime() {
        return poppedTime;
    }

    void push(long t, long packed) {
        heap.add(new Entry(t, nextSeq++, packed));
    }

    /** Removes the earliest event and returns its payload; its time is then {@link #poppedTime()}. */
    long pop() {
        Entry e = heap.poll();
        poppedTime = e.time();
        return e.payload();
    }

    void clear() {
        heap.clear();
    }

    /** Drops every stale event; the order of the rest is kept by their (time, sequence). */
    void removeStale(EventQueue.StaleTest test) {
        heap.removeIf(e -> test.isStale(e.payload()));
    }
}
