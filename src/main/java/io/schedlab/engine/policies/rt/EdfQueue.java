package io.schedlab.engine.policies.rt;

import java.util.ArrayList;
import java.util.List;

/**
 * A list kept in priority order, as Xen's deadline_queue_insert keeps the RTDS run and replenishment
 * queues (xen/common/sched/rt.c): an entry goes after every entry of equal or higher priority (FIFO among
 * equals). Counts the entries each operation walks in Xen's lists ({@link #takeWork()}), the work done under
 * the lock: an insertion walks to its place, a removal (list_del) is one step, a pick walks to its entry.
 *
 * @param <T> the queued entries
 */
final class EdfQueue<T> {
    /** Priority order: positive when the first argument has the higher priority. */
    interface Priority<T> {
        long compare(T a, T b);
    }

    private final List<T> entries = new ArrayList<>();
    private final Priority<T> priority;
    private long work;

    EdfQueue(Priority<T> priority) {
        this.priority = priority;
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
        entries.add(lo, e);
        return lo == 0;
    }

    /** Appends at the tail without ordering (the depleted queue's list_add). */
    void add(T e) {
        work++;
        entries.add(e);
    }

    /** Removes e (list_del: one step of work); returns true when it was the front entry. */
    boolean remove(T e) {
        work++;
        int i = indexOf(e);
        if (i >= 0) {
            entries.remove(i);
        }
        return i == 0;
    }

    /** Where e sits: searched among the entries of its priority, else (its key changed in place) everywhere. */
    private int indexOf(T e) {
        int lo = 0;
        int hi = entries.size();
        while (lo < hi) { // first index whose entry does not outrank e
            int mid = (lo + hi) >>> 1;
            if (priority.compare(entries.get(mid), e) > 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        for (int i = lo; i < entries.size() && priority.compare(entries.get(i), e) == 0; i++) {
            if (entries.get(i) == e) {
                return i;
            }
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
