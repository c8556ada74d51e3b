package io.schedlab.engine.policies.rt;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.ObjLongConsumer;
import java.util.function.ToLongFunction;

/**
 * A list kept in priority order, as Xen's deadline_queue_insert keeps the RTDS run and replenishment
 * queues (xen/common/sched/rt.c): an entry goes after every entry of equal or higher priority (FIFO among
 * equals). Counts the entries each operation walks in Xen's lists ({@link #takeWork()}), the work done under
 * the lock: an insertion walks to its place, a removal (list_del) is one step, a pick walks to its entry.
 * Entries carry an order label ({@link #labels}) so that a removal finds its entry by binary search even
 * when priorities changed in place (Xen's list_del needs no search at all).
 *
 * @param <T> the queued entries
 */
final class EdfQueue<T> {
    /** Priority order: positive when the first argument has the higher priority. */
    interface Priority<T> {
        long compare(T a, T b);
    }

    /** Room between neighbouring labels after a relabelling (2^32: ~32 halvings before the next). */
    private static final long GAP = 1L << 32;

    private final List<T> entries = new ArrayList<>();
    /**
     * Each entry's label, increasing along the list (an order-maintenance labelling): whatever the entries'
     * priorities do in place, an entry is found by a binary search of its label, so a removal does not scan.
     */
    private long[] labels = new long[16];
    private final Priority<T> priority;
    private final ToLongFunction<T> labelOf;
    private final ObjLongConsumer<T> setLabel;
    private long work;

    /** {@code labelOf}/{@code setLabel}: a field of the entry that only this queue (or its exclusive peer) uses. */
    EdfQueue(Priority<T> priority, ToLongFunction<T> labelOf, ObjLongConsumer<T> setLabel) {
        this.priority = priority;
        this.labelOf = labelOf;
        this.setLabel = setLabel;
    }

    /**
     * deadline_queue_insert: returns true when the entry went to the front. Xen walks the list to the first
     * entry of lower priority; the position is found here by binary search (the list is sorted) and the walk
     * Xen would do is what counts as work.
     */
    boolean insert(T e) {
        int lo = 0;
        int hi = entries.size();
        while (lo < hi) { // first index whose entry e outranks (the list is in priority order)
            int mid = (lo + hi) >>> 1;
            if (priority.compare(e, entries.get(mid)) > 0) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        work += lo + 1;
        insertAt(lo, e);
        return lo == 0;
    }

    /** Appends at the tail without ordering (the depleted queue's list_add). */
    void add(T e) {
        work++;
        insertAt(entries.size(), e);
    }

    /** Removes e (list_del: one step of work); returns true when it was the front entry. */
    boolean remove(T e) {
        work++;
        int i = indexOf(e);
        if (i >= 0) {
            entries.remove(i);
            System.arraycopy(labels, i + 1, labels, i, entries.size() - i);
        }
        return i == 0;
    }

    private void insertAt(int i, T e) {
        int size = entries.size();
        if (size == labels.length) {
            labels = Arrays.copyOf(labels, size * 2);
        }
        long before = i == 0 ? (size == 0 ? -GAP : labels[0] - GAP) : labels[i - 1];
        long after = i == size ? (size == 0 ? GAP : labels[size - 1] + GAP) : labels[i];
        boolean overflow = (i == 0 && size > 0 && labels[0] < Long.MIN_VALUE / 2)
                || (i == size && size > 0 && labels[size - 1] > Long.MAX_VALUE / 2);
        System.arraycopy(labels, i, labels, i + 1, size - i);
        entries.add(i, e);
        if (after - before < 2 || overflow) {
            relabel();
        } else {
            long label = before + (after - before) / 2;
            labels[i] = label;
            setLabel.accept(e, label);
        }
    }

    /** Spreads the labels evenly again, centred on 0, when two neighbours leave no room between them. */
    private void relabel() {
        int size = entries.size();
        for (int i = 0; i < size; i++) {
            long label = (i - size / 2) * GAP;
            labels[i] = label;
            setLabel.accept(entries.get(i), label);
        }
    }

    /** Where e sits: its label's place (an entry not in the queue: -1). */
    private int indexOf(T e) {
        int i = Arrays.binarySearch(labels, 0, entries.size(), labelOf.applyAsLong(e));
        if (i >= 0 && entries.get(i) == e) {
            return i;
        }
        return entries.indexOf(e);
    }

    /** Whether an entry may run on a pCPU (a static method reference: nothing is allocated per pick). */
    interface Fits<T> {
        boolean test(T e, int cpu);
    }

    /** The first entry (in priority order) that {@code fits} on {@code cpu}, or null (runq_pick). */
    T first(Fits<T> fits, int cpu) {
        for (int i = 0; i < entries.size(); i++) {
            T e = entries.get(i);
            if (fits.test(e, cpu)) {
                work += i + 1;
                return e;
            }
        }
        work += entries.size();
        return null;
    }

    T head() {
        return entries.isEmpty() ? null : entries.get(0);
    }

    boolean isEmpty() {
        return entries.isEmpty();
    }

    int size() {
        return entries.size();
    }

    T get(int i) {
        return entries.get(i);
    }

    /** Entries walked since the last call (and resets the count). */
    long takeWork() {
        long w = work;
        work = 0;
        return w;
    }

    /** Counts {@code n} more entries walked by a caller's own scan. */
    void addWork(long n) {
        work += n;
    }
}
