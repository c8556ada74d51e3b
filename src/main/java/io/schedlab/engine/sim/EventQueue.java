package io.schedlab.engine.sim;

import java.util.Arrays;

/**
 * The simulator's event queue: a min-heap ordered by (time, insertion sequence), so equal-time
 * events run in the order they were scheduled (deterministic). An event is a packed long: kind (4
 * bits), target (28 bits), version (32 bits). Stale events are invalidated lazily by their version,
 * never removed one by one. No allocation after growth.
 *
 * <p>Layout, for speed (the queue was the engine's largest single cost): a 4-ary heap whose
 * (time, sequence) order is one {@code long} key, {@code time << seqBits | sequence}, so a level is
 * three branch-free minimum steps over one cache line instead of a binary heap's two-array
 * comparisons (about twice as fast in a hold-model loop). The time takes the bits the horizon
 * needs; times beyond the horizon are kept as the largest key time (they are never popped before
 * the horizon, and keep insertion order among themselves). The sequence takes the rest; when it
 * runs out, queued events are renumbered per time in order (their order is unchanged), and if one
 * instant holds too many events for that, the queue moves to a {@link java.util.PriorityQueue} of
 * (time, sequence) entries ({@link WideEventHeap}) in the same order. Either way the pop order depends only on (time,
 * sequence).
 *
 * <p>{@link #pop} leaves the event at the root until the next call: a push right after a pop (the
 * usual event handler) replaces the root with one sift-down instead of a removal's sift-down plus
 * an insertion's sift-up; any other call removes it first.
 */
public final class EventQueue {
    /** Fewest sequence bits worth a key: below this, the queue starts as a {@link WideEventHeap}. */
    static final int MIN_SEQ_BITS = 12;

    private final int seqBits;
    private final long seqMask;
    private final long maxKeyTime;
    private long[] key;
    private long[] payload;
    private int size;
    private long nextSeq;
    private long poppedTime;
    /** The root is the event {@link #pop} returned last, not yet removed from the arrays. */
    private boolean rootTaken;
    /** Times the sequence ran out and the queued events were renumbered (tests). */
    int renumberings;
    /** Non-null once the queue has moved to (time, sequence) pairs; then it holds every event. */
    private WideEventHeap wide;

    /** A queue whose events up to {@code horizonNanos} are ordered exactly by time (later ones too, as that time). */
    public EventQueue(int initialCapacity, long horizonNanos) {
        this(initialCapacity, horizonNanos, Integer.MAX_VALUE);
    }

    /** As above, with at most {@code maxSeqBits} sequence bits (tests use few, to exercise renumbering). */
    EventQueue(int initialCapacity, long horizonNanos, int maxSeqBits) {
        if (horizonNanos < 0) {
            throw new IllegalArgumentException("horizon must be >= 0, got " + horizonNanos);
        }
        int timeBits = Math.max(1, 64 - Long.numberOfLeadingZeros(horizonNanos));
        this.seqBits = Math.min(maxSeqBits, 63 - timeBits);
        this.seqMask = seqBits <= 0 ? 0 : (1L << seqBits) - 1;
        this.maxKeyTime = seqBits <= 0 ? 0 : Long.MAX_VALUE >>> seqBits;
        int n = Math.max(16, initialCapacity);
        if (seqBits < MIN_SEQ_BITS) {
            wide = new WideEventHeap(n);
        } else {
            key = new long[n];
            payload = new long[n];
        }
    }

    public static long pack(int kind, int target, int version) {
        return ((long) kind << 60) | ((long) (target & 0x0FFF_FFFF) << 32) | (version & 0xFFFF_FFFFL);
    }

    public static int kind(long payload) {
        return (int) (payload >>> 60);
    }

    public static int target(long payload) {
        return (int) ((payload >>> 32) & 0x0FFF_FFFF);
    }

    public static int version(long payload) {
        return (int) payload;
    }

    public int size() {
        if (wide != null) {
            return wide.size();
        }
        return rootTaken ? size - 1 : size;
    }

    public boolean isEmpty() {
        return size() == 0;
    }

    /** Tells whether the queue has moved to (time, sequence) pairs (tests). */
    boolean isWide() {
        return wide != null;
    }

    /** Time of the earliest event (as kept: at most the largest key time); only valid when not empty. */
    public long peekTime() {
        if (wide != null) {
            return wide.peekTime();
        }
        removeTakenRoot();
        return key[0] >>> seqBits;
    }

    /** Time of the event last returned by {@link #pop}. */
    public long poppedTime() {
        return wide != null ? wide.poppedTime() : poppedTime;
    }

    public void push(long t, long packed) {
        if (t < 0) {
            throw new IllegalArgumentException("event time must be >= 0, got " + t);
        }
        if (wide != null) {
            wide.push(t, packed);
            return;
        }
        if (nextSeq > seqMask) {
            renumber();
            if (wide != null) {
                wide.push(t, packed);
                return;
            }
        }
        long k = (Math.min(t, maxKeyTime) << seqBits) | nextSeq++;
        if (rootTaken) {
            rootTaken = false;
            siftDown(0, k, packed); // the new event takes the popped one's place
            return;
        }
        if (size == key.length) {
            key = Arrays.copyOf(key, size * 2);
            payload = Arrays.copyOf(payload, size * 2);
        }
        int i = size++;
        long[] keys = key;
        while (i > 0) {
            int parent = (i - 1) >>> 2;
            long pk = keys[parent];
            if (pk < k) {
                break;
            }
            keys[i] = pk;
            payload[i] = payload[parent];
            i = parent;
        }
        keys[i] = k;
        payload[i] = packed;
    }

    /** Removes the earliest event and returns its payload; its time is then {@link #poppedTime()}. */
    public long pop() {
        if (wide != null) {
            return wide.pop();
        }
        removeTakenRoot();
        poppedTime = key[0] >>> seqBits;
        rootTaken = true;
        return payload[0];
    }

    /** Completes the last {@link #pop}: the last element fills the root and sinks. */
    private void removeTakenRoot() {
        if (!rootTaken) {
            return;
        }
        rootTaken = false;
        int n = --size;
        if (n > 0) {
            siftDown(0, key[n], payload[n]);
        }
    }

    public void clear() {
        if (wide != null) {
            wide.clear();
            return;
        }
        size = 0;
        rootTaken = false;
    }

    /** Tells whether a queued event is stale (its target moved on). */
    @FunctionalInterface
    public interface StaleTest {
        boolean isStale(long payload);
    }

    /**
     * Drops every stale event and rebuilds the heap (O(n)); order of the rest is unchanged because
     * the keys are kept. Keeps memory bounded when many events are invalidated lazily.
     */
    public void removeStale(StaleTest test) {
        if (wide != null) {
            wide.removeStale(test);
            return;
        }
        removeTakenRoot();
        int n = 0;
        for (int i = 0; i < size; i++) {
            if (!test.isStale(payload[i])) {
                key[n] = key[i];
                payload[n] = payload[i];
                n++;
            }
        }
        size = n;
        for (int i = (n - 2) >>> 2; n > 1 && i >= 0; i--) {
            siftDown(i, key[i], payload[i]);
        }
    }

    /**
     * The sequence bits ran out: take the events out in order (a sorted array is a heap) and number
     * them again from 0 within each time. New events then follow every queued one of their time. If
     * one time holds more than half the sequence range, move to {@link WideEventHeap} instead.
     */
    private void renumber() {
        renumberings++;
        removeTakenRoot();
        int n = size;
        long[] sortedKeys = new long[key.length];
        long[] sortedPayloads = new long[key.length];
        for (int i = 0; i < n; i++) {
            sortedPayloads[i] = pop();
            sortedKeys[i] = key[0]; // the popped root stays until the next call
            removeTakenRoot();
        }
        // one time's events are at most 2^seqBits (their sequences differ), so a new number fits
        long largestGroup = 0;
        for (int i = 0; i < n; i++) {
            long time = sortedKeys[i] >>> seqBits;
            long run = i > 0 && time == sortedKeys[i - 1] >>> seqBits ? (sortedKeys[i - 1] & seqMask) + 1 : 0;
            sortedKeys[i] = (time << seqBits) | run;
            largestGroup = Math.max(largestGroup, run + 1);
        }
        if (largestGroup > (seqMask + 1) / 2) {
            wide = new WideEventHeap(Math.max(16, n));
            for (int i = 0; i < n; i++) {
                wide.push(sortedKeys[i] >>> seqBits, sortedPayloads[i]);
            }
            key = null;
            payload = null;
            return;
        }
        key = sortedKeys;
        payload = sortedPayloads;
        size = n;
        nextSeq = largestGroup;
    }

    /** Places (k, p) at slot i or below it, moving the smallest child up (heap of {@link #size} elements). */
    private void siftDown(int i, long k, long p) {
        int n = size;
        long[] keys = key;
        long[] payloads = payload;
        while (true) {
            int c = (i << 2) + 1;
            if (c >= n) {
                break;
            }
            long m = keys[c];
            int mi = c;
            int end = Math.min(c + 4, n);
            for (int j = c + 1; j < end; j++) {
                long kj = keys[j];
                if (kj < m) {
                    m = kj;
                    mi = j;
                }
            }
            if (k < m) {
                break;
            }
            keys[i] = m;
            payloads[i] = payloads[mi];
            i = mi;
        }
        keys[i] = k;
        payloads[i] = p;
    }
}
