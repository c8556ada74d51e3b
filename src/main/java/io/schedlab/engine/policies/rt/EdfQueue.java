package io.schedlab.engine.policies.rt;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * A list kept in priority order, as Xen's deadline_queue_insert keeps the RTDS run and replenishment
 * queues (xen/common/sched/rt.c): an entry goes after every entry of equal or higher priority (FIFO among
 * equals). Counts the entries each operation walks ({@link #takeWork()}), the work done under the lock.
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

    /** deadline_queue_insert: returns true when the entry went to the front. */
    boolean insert(T e) {
        int i = 0;
        while (i < entries.size() && priority.compare(e, entries.get(i)) <= 0) {
            i++;
        }
        work += i + 1;
        entries.add(i, e);
        return i == 0;
    }

    /** Appends at the tail without ordering (the depleted queue's list_add). */
    void add(T e) {
        work++;
        entries.add(e);
    }

    /** Removes e; returns true when it was the front entry. */
    boolean remove(T e) {
        int i = entries.indexOf(e);
        work += i + 1;
        if (i >= 0) {
            entries.remove(i);
        }
        return i == 0;
    }

    /** The first entry (in priority order) that {@code fits}, or null (runq_pick). */
    T first(Predicate<T> fits) {
        for (int i = 0; i < entries.size(); i++) {
            T e = entries.get(i);
            if (fits.test(e)) {
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
