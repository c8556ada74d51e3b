package io.schedlab.engine.sim;

import java.util.Arrays;

/**
 * A binary min-heap of events in parallel primitive arrays, ordered by (time, insertion sequence)
 * so equal-time events run in the order they were scheduled (deterministic). An event is a packed
 * long: kind (4 bits), target (28 bits), version (32 bits). Stale events are invalidated lazily by
 * their version, never removed. No allocation after growth. {@link #pop} leaves the event at the
 * root until the next call: a push right after a pop (the usual event handler) replaces the root
 * with one sift-down instead of a removal's sift-down plus an insertion's sift-up; any other call
 * removes it first. The pop order depends only on the (time, sequence) keys, never on the layout.
 */
public final class EventQueue {
    private long[] time;
    private long[] seq;
    private long[] payload;
    private int size;
    private long nextSeq;
    private long poppedTime;
    /** The root is the event {@link #pop} returned last, not yet removed from the arrays. */
    private boolean rootTaken;

    public EventQueue(int initialCapacity) {
        int n = Math.max(16, initialCapacity);
        time = new long[n];
        seq = new long[n];
        payload = new long[n];
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
        return rootTaken ? size - 1 : size;
    }

    public boolean isEmpty() {
        return size() == 0;
    }

    /** Time of the earliest event; only valid when not empty. */
    public long peekTime() {
        removeTakenRoot();
        return time[0];
    }

    /** Time of the event last returned by {@link #pop}. */
    public long poppedTime() {
        return poppedTime;
    }

    public void push(long t, long packed) {
        if (rootTaken) {
            rootTaken = false;
            siftDown(0, t, nextSeq++, packed); // the new event takes the popped one's place
            return;
        }
        if (size == time.length) {
            int n = size * 2;
            time = Arrays.copyOf(time, n);
            seq = Arrays.copyOf(seq, n);
            payload = Arrays.copyOf(payload, n);
        }
        long s = nextSeq++;
        int i = size++;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            long pt = time[parent];
            if (pt < t || (pt == t && seq[parent] < s)) {
                break;
            }
            time[i] = pt;
            seq[i] = seq[parent];
            payload[i] = payload[parent];
            i = parent;
        }
        time[i] = t;
        seq[i] = s;
        payload[i] = packed;
    }

    /** Removes the earliest event and returns its payload; its time is then {@link #poppedTime()}. */
    public long pop() {
        removeTakenRoot();
        poppedTime = time[0];
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
            siftDown(0, time[n], seq[n], payload[n]);
        }
    }

    public void clear() {
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
     * (time, sequence) keys are kept. Keeps memory bounded when many events are invalidated lazily.
     */
    public void removeStale(StaleTest test) {
        removeTakenRoot();
        int n = 0;
        for (int i = 0; i < size; i++) {
            if (!test.isStale(payload[i])) {
                time[n] = time[i];
                seq[n] = seq[i];
                payload[n] = payload[i];
                n++;
            }
        }
        size = n;
        for (int i = (n >>> 1) - 1; i >= 0; i--) {
            siftDown(i);
        }
    }

    private void siftDown(int i) {
        siftDown(i, time[i], seq[i], payload[i]);
    }

    /** Places (t, s, p) at slot i or below it, moving smaller children up (heap of {@link #size} elements). */
    private void siftDown(int i, long t, long s, long p) {
        int n = size;
        int half = n >>> 1;
        while (i < half) {
            int c = 2 * i + 1;
            int r = c + 1;
            long ct = time[c];
            long cs = seq[c];
            if (r < n) {
                long rt = time[r];
                if (rt < ct || (rt == ct && seq[r] < cs)) {
                    c = r;
                    ct = rt;
                    cs = seq[r];
                }
            }
            if (t < ct || (t == ct && s < cs)) {
                break;
            }
            time[i] = ct;
            seq[i] = cs;
            payload[i] = payload[c];
            i = c;
        }
        time[i] = t;
        seq[i] = s;
        payload[i] = p;
    }
}
