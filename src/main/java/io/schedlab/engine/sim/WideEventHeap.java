package io.schedlab.engine.sim;

import java.util.Arrays;

/**
 * {@link EventQueue}'s fallback: a binary min-heap of (time, insertion sequence, payload) in
 * parallel arrays, for a run whose one-long keys ran out of sequence bits (very many events at one
 * instant of a very long run). Same order and lazy pop as the key heap, slower comparisons.
 */
final class WideEventHeap {
    private long[] time;
    private long[] seq;
    private long[] payload;
    private int size;
    private long nextSeq;
    private long poppedTime;
    /** The root is the event {@link #pop} returned last, not yet removed from the arrays. */
    private boolean rootTaken;

    WideEventHeap(int initialCapacity) {
        int n = Math.max(16, initialCapacity);
        time = new long[n];
        seq = new long[n];
        payload = new long[n];
    }

    int size() {
        return rootTaken ? size - 1 : size;
    }

    boolean isEmpty() {
        return size() == 0;
    }

    /** Time of the earliest event; only valid when not empty. */
    long peekTime() {
        removeTakenRoot();
        return time[0];
    }

    /** Time of the event last returned by {@link #pop}. */
    long poppedTime() {
        return poppedTime;
    }

    void push(long t, long packed) {
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
    long pop() {
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

    void clear() {
        size = 0;
        rootTaken = false;
    }

    /**
     * Drops every stale event and rebuilds the heap (O(n)); order of the rest is unchanged because
     * (time, sequence) keys are kept. Keeps memory bounded when many events are invalidated lazily.
     */
    void removeStale(EventQueue.StaleTest test) {
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
