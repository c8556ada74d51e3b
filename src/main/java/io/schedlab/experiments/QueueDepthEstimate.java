package io.schedlab.experiments;

import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The job queue's depth for the queue-full check, kept off the request path: the queue's COUNT
 * (a scan of its table) runs at most every refresh interval on a background thread, and each
 * accepted submission counts itself up in between, so a burst cannot overshoot the limit. With a
 * backlog of ~100,000 jobs on H2, the one request per second that ran the COUNT itself took ~13%
 * of the API threads' CPU and set the p99 (JFR, wrk POSTs). Only the first read, and every read
 * when the interval is zero, counts synchronously. A refresh can miss submissions that commit
 * while it counts (at most the in-flight ones); the next refresh corrects it.
 */
final class QueueDepthEstimate {

    private static final Logger log = LoggerFactory.getLogger(QueueDepthEstimate.class);

    private final LongSupplier count;
    private final long refreshNanos;
    private final Executor refresher;
    private final AtomicLong estimate = new AtomicLong();
    private final AtomicBoolean refreshing = new AtomicBoolean();
    private volatile long readAt;
    /** When the estimate last came from a completed count (accepted submissions only add to it since). */
    private volatile long countedAt;
    private volatile boolean known;

    QueueDepthEstimate(LongSupplier count, long refreshNanos, Executor refresher) {
        this.count = count;
        this.refreshNanos = refreshNanos;
        this.refresher = refresher;
    }

    /** The current estimate: counted now only the first time (or always with a zero interval). */
    long current() {
        if (refreshNanos <= 0) {
            estimate.set(count.getAsLong());
            return estimate.get();
        }
        if (!known) {
            synchronized (this) {
                if (!known) {
                    estimate.set(count.getAsLong());
                    readAt = System.nanoTime();
                    countedAt = readAt;
                    known = true;
                }
            }
        } else if (System.nanoTime() - readAt >= refreshNanos && refreshing.compareAndSet(false, true)) {
            readAt = System.nanoTime();
            refresher.execute(this::refresh);
        }
        return estimate.get();
    }

    /**
     * The depth a refusal may rest on: the estimate when a count completed within the refresh interval,
     * else counted now on the caller's thread. After a burst the estimate stays high until a refresh,
     * and the first submission after the queue drained would otherwise be refused against it; a
     * refusal counts at most once per interval, so an overloaded queue does not count per request.
     */
    long confirmed() {
        if (refreshNanos <= 0 || System.nanoTime() - countedAt < refreshNanos) {
            return estimate.get(); // with a zero interval the caller's current() has just counted
        }
        synchronized (this) {
            if (System.nanoTime() - countedAt >= refreshNanos) {
                estimate.set(count.getAsLong());
                countedAt = System.nanoTime();
            }
        }
        return estimate.get();
    }

    /** One more job is queued (an accepted submission). */
    void accepted() {
        estimate.incrementAndGet();
    }

    private void refresh() {
        try {
            estimate.set(count.getAsLong());
            countedAt = System.nanoTime();
        } catch (RuntimeException e) {
            log.debug("queue depth refresh failed; keeping the estimate", e);
        } finally {
            refreshing.set(false);
        }
    }
}
