package io.schedlab.engine.policies.rt;

/**
 * sEDF's extra queue with equal extra weights: a round-robin list of vCPUs, linked through the vCPUs
 * themselves as Xen's list_head is. Add at the tail and list_del are one step of lock work each, a pick walks
 * from the head; counted as {@link EdfQueue} does.
 */
final class FifoQueue {
    private SedfVcpu head;
    private SedfVcpu tail;
    private long work;

    void add(SedfVcpu e) {
        work++;
        e.extraPrev = tail;
        e.extraNext = null;
        if (tail == null) {
            head = e;
        } else {
            tail.extraNext = e;
        }
        tail = e;
    }

    /** list_del of a queued entry. */
    void remove(SedfVcpu e) {
        work++;
        if (e.extraPrev == null) {
            head = e.extraNext;
        } else {
            e.extraPrev.extraNext = e.extraNext;
        }
        if (e.extraNext == null) {
            tail = e.extraPrev;
        } else {
            e.extraNext.extraPrev = e.extraPrev;
        }
        e.extraPrev = null;
        e.extraNext = null;
    }

    /** The first entry from the head that {@code fits} on {@code cpu}, or null. */
    SedfVcpu first(EdfQueue.Fits<SedfVcpu> fits, int cpu) {
        int walked = 0;
        for (SedfVcpu e = head; e != null; e = e.extraNext) {
            walked++;
            if (fits.test(e, cpu)) {
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
