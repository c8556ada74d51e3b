package io.schedlab.engine.tracereplay;

import java.util.List;

/**
 * A recorded trace read into threads.
 *
 * @param format      the format it was read as ({@code perf-script}, {@code trace-cmd}, {@code xentrace})
 * @param cpus        the host's CPU count (the highest CPU number seen, plus one, or as the file states)
 * @param spanNanos   time from its first record to its last
 * @param records     records read
 * @param lostRecords records the tracer reports lost (xentrace {@code TRC_LOST_RECORDS})
 * @param threads     the threads, in order of first appearance
 */
public record RecordedTrace(String format, int cpus, long spanNanos, long records, long lostRecords,
        List<RecordedThread> threads) {
}
