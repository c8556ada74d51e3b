package io.schedlab.engine.policies.rt;

import java.util.LinkedHashSet;
import java.util.function.Predicate;

/**
 * A round-robin list (sEDF's extra queue with equal extra weights): add at the tail and list_del are one step
 * each, a pick walks from the head; counts that work as {@link EdfQueue} does.
 *
 * @param <T> the queued entries
 */
final class FifoQueue<T> {
    private final LinkedHashSet<T> entries = new LinkedHashSet<>();
    private long work;

    void add(T e) {
        work++;
        entries.add(e);
    }

    void remove(T e) {
        work++;
        entries.remove(e);
    }

    /** The first entry from the head that {@code fits}, or null. */
    T first(Predicate<T> fits) {
        int walked = 0;
        for (T e : entries) {
            walked++;
            if (fits.test(e)) {
                work += walked;
                return e;
            }
        }
        work += walked;
        return null;
    }

    long takeWork() {
        long w = work;
        work = 0;
        return w;
    }
}
