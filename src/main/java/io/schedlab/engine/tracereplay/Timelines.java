package io.schedlab.engine.tracereplay;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The timelines of a trace's threads by key, in order of first appearance, under the thread limit. */
final class Timelines {

    private final Map<String, ThreadTimeline> byKey = new LinkedHashMap<>();
    private final ImportLimits limits;
    private long start = Long.MIN_VALUE;
    private long last;

    Timelines(ImportLimits limits) {
        this.limits = limits;
    }

    /** Notes a record's time: the first is the trace's start. */
    void at(long t) {
        if (start == Long.MIN_VALUE) {
            start = t;
        }
        last = t;
    }

    /** The timeline of {@code key}, created on first sight; {@code where} is blamed when over the limit. */
    ThreadTimeline of(String key, String group, String name, String where) {
        ThreadTimeline t = byKey.get(key);
        if (t == null) {
            if (byKey.size() >= limits.maxThreads()) {
                throw new TraceImportException(where, "more than " + limits.maxThreads() + " threads");
            }
            t = new ThreadTimeline(group, name, start);
            byKey.put(key, t);
        }
        return t;
    }

    Iterable<ThreadTimeline> all() {
        return byKey.values();
    }

    RecordedTrace finish(String format, int cpus, long records, long lostRecords) {
        if (byKey.isEmpty()) {
            throw new TraceImportException("file", "no thread ever ran or woke (no scheduling events)");
        }
        List<RecordedThread> threads = new ArrayList<>();
        for (ThreadTimeline t : byKey.values()) {
            t.end(last);
            threads.add(t.toRecord());
        }
        return new RecordedTrace(format, cpus, last - start, records, lostRecords, threads);
    }
}
