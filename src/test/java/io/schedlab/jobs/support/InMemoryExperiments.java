package io.schedlab.jobs.support;

import io.schedlab.engine.output.ResultDocument;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.experiments.ExperimentLifecycle;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Test-only {@link ExperimentLifecycle}: experiment records in memory with the same transition
 * rules the service implements, plus timestamps so tests can measure latencies.
 */
public final class InMemoryExperiments implements ExperimentLifecycle {

    /** One experiment as the job sees it. */
    public static final class Record {
        public final ExperimentSpec spec;
        public volatile String status = "QUEUED";
        public volatile boolean cancelRequested;
        public volatile String reason;
        public volatile ResultDocument result;
        public volatile long runningAtNanos;
        public volatile long finishedAtNanos;
        public volatile int markRunningCalls;
        /** The replica (db-scheduler picked_by) that last started it. */
        public volatile String replica;
        /** The worker thread's priority when it stored the outcome. */
        public volatile int finishedAtPriority;
        public final List<long[]> progressWrites = new CopyOnWriteArrayList<>();
        public final List<Double> progressFractions = new CopyOnWriteArrayList<>();

        Record(ExperimentSpec spec) {
            this.spec = spec;
        }

        boolean terminal() {
            return status.equals("SUCCEEDED") || status.equals("FAILED") || status.equals("CANCELLED");
        }
    }

    private final Map<UUID, Record> records = new ConcurrentHashMap<>();

    public UUID create(ExperimentSpec spec) {
        UUID id = UUID.randomUUID();
        records.put(id, new Record(spec));
        return id;
    }

    public Record get(UUID id) {
        return records.get(id);
    }

    /** Like the service: a queued experiment is cancelled at once, a running one is asked to stop. */
    public synchronized void requestCancel(UUID id) {
        Record record = records.get(id);
        if (record.status.equals("QUEUED")) {
            finish(record, "CANCELLED");
        } else if (record.status.equals("RUNNING")) {
            record.cancelRequested = true;
        }
    }

    /** Simulates a crashed process that had taken the experiment. */
    public synchronized void forceRunning(UUID id) {
        records.get(id).status = "RUNNING";
    }

    /** Waits until the experiment reaches a final status; returns it. */
    public Record awaitFinished(UUID id, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        Record record = records.get(id);
        while (!record.terminal()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("experiment " + id + " still " + record.status + " after " + timeout);
            }
            Thread.sleep(5);
        }
        return record;
    }

    /** Waits until the experiment is RUNNING. */
    public Record awaitRunning(UUID id, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        Record record = records.get(id);
        while (!record.status.equals("RUNNING")) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("experiment " + id + " still " + record.status + " after " + timeout);
            }
            Thread.sleep(2);
        }
        return record;
    }

    @Override
    public Optional<ExperimentSpec> normalizedSpec(UUID id) {
        Record record = records.get(id);
        return record == null ? Optional.empty() : Optional.of(record.spec);
    }

    @Override
    public synchronized boolean markRunning(UUID id, String replica) {
        boolean running = markRunning(id);
        if (running) {
            records.get(id).replica = replica;
        }
        return running;
    }

    @Override
    public synchronized boolean markRunning(UUID id) {
        Record record = records.get(id);
        if (record == null || !(record.status.equals("QUEUED") || record.status.equals("RUNNING"))) {
            return false;
        }
        record.status = "RUNNING";
        record.runningAtNanos = System.nanoTime();
        record.markRunningCalls++;
        return true;
    }

    @Override
    public void updateProgress(UUID id, double fraction, long simulatedNanos) {
        Record record = records.get(id);
        record.progressWrites.add(new long[] {System.nanoTime(), simulatedNanos});
        record.progressFractions.add(fraction);
    }

    @Override
    public boolean cancelRequested(UUID id) {
        Record record = records.get(id);
        return record != null && record.cancelRequested;
    }

    @Override
    public synchronized void markSucceeded(UUID id, ResultDocument result) {
        Record record = records.get(id);
        if (record.status.equals("RUNNING")) {
            record.result = result;
            finish(record, "SUCCEEDED");
        }
    }

    @Override
    public synchronized void markFailed(UUID id, String reason) {
        Record record = records.get(id);
        if (!record.terminal()) {
            record.reason = reason;
            finish(record, "FAILED");
        }
    }

    @Override
    public synchronized void markCancelled(UUID id) {
        Record record = records.get(id);
        if (!record.terminal()) {
            finish(record, "CANCELLED");
        }
    }

    private static void finish(Record record, String status) {
        record.finishedAtNanos = System.nanoTime();
        record.finishedAtPriority = Thread.currentThread().getPriority();
        record.status = status;
    }
}
