package io.schedlab.engine.workloads;

import io.schedlab.engine.params.ParameterSpec;
import io.schedlab.engine.params.Params;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * Runs an rt-app workload description (scheduler-tools/rt-app, doc/tutorial.txt) in the guest: one guest thread
 * per task instance, its phases of run, runtime, sleep, timer, lock and unlock events, loops, delay; rt-app's
 * mutexes are the guest's blocking mutexes, shared by every task of the VM. Reports what rt-app's logs show of the
 * timers: per thread the period between activations, the wake-up lateness after each expiry (wu_lat) and the
 * expiries missed; the headline is the p99 lateness over every thread.
 */
public final class RtAppWorkload implements Workload {

    static final String TYPE = "rt-app";
    /** A periodic thread: 1 ms of work every 10 ms. */
    static final String DEFAULT_JSON =
            "{\"tasks\":{\"thread0\":{\"run\":1000,\"timer\":{\"ref\":\"unique\",\"period\":10000}}}}";
    /** Highest lateness the histogram tracks: one hour, 2 significant digits (~1% error). */
    private static final long MAX_TRACKED_NANOS = 3_600_000_000_000L;

    private final RtAppDocument document;
    private final Histogram lateness = new Histogram(1, MAX_TRACKED_NANOS, 2);
    private final List<String> names = new ArrayList<>();
    private final List<RtAppThreadStats> stats = new ArrayList<>();

    private long startNanos;
    private long lastExitNanos;
    private int exited;
    private long missed;

    RtAppWorkload(RtAppDocument document) {
        this.document = document;
    }

    /** Parse and check an rt-app document (a Map as the API reads JSON, or a string holding it). */
    public static RtAppWorkload parse(Object json) {
        return new RtAppWorkload(RtAppDocument.parse(json));
    }

    static RtAppWorkload fromParams(Params p) {
        return parse(p.asMap().get("json"));
    }

    /** Registry entry: type, description, unit and parameters with defaults, bounds and sources. */
    public static WorkloadDescriptor descriptor() {
        return new WorkloadDescriptor(TYPE,
                "an rt-app JSON description: tasks of run, runtime, sleep, timer, lock/unlock events with loops and"
                        + " instances; reports timer periods, wake-up lateness and missed expiries per thread",
                "us",
                List.of(ParameterSpec.json("json", DEFAULT_JSON, RtAppDocument.MAX_DOCUMENT_BYTES, "rt-app JSON",
                        "the rt-app document, as a JSON object or a string holding one: tasks (instance, delay, loop,"
                                + " phases with loop and events run, runtime, sleep, timer, lock, unlock; policy"
                                + " SCHED_OTHER, priority 0) and global (duration); other keys are refused",
                        "scheduler-tools/rt-app doc/tutorial.txt; limits " + RtAppDocument.MAX_DOCUMENT_BYTES
                                + " bytes, " + RtAppDocument.MAX_TASKS + " tasks, " + RtAppDocument.MAX_THREADS
                                + " threads, " + RtAppDocument.MAX_PHASES + " phases per task, "
                                + RtAppDocument.MAX_EVENTS + " events, loops up to " + RtAppDocument.MAX_LOOP
                                + ", durations up to " + RtAppDocument.MAX_MICROS + " us")),
                RtAppWorkload::fromParams);
    }

    @Override
    public void start(WorkloadEnv env) {
        startNanos = env.now();
        long stopAt = document.durationNanos() < 0 ? Long.MAX_VALUE : startNanos + document.durationNanos();
        RtAppTimer[] shared = new RtAppTimer[document.sharedTimers()];
        for (RtAppTask task : document.tasks()) {
            for (int i = 0; i < task.instances(); i++) {
                RtAppThreadStats s = new RtAppThreadStats();
                names.add(task.threadName(i));
                stats.add(s);
                env.spawn(new RtAppThread(task, shared, s, this, stopAt));
            }
        }
    }

    @Override
    public boolean isFinite() {
        return document.durationNanos() >= 0 || document.tasks().stream().allMatch(t -> t.loop() >= 0);
    }

    @Override
    public boolean isComplete() {
        return isFinite() && !stats.isEmpty() && exited == stats.size();
    }

    void lateness(long nanos) {
        lateness.recordValue(Math.min(Math.max(0, nanos), MAX_TRACKED_NANOS));
    }

    void missed() {
        missed++;
    }

    void threadExited(long now) {
        exited++;
        lastExitNanos = Math.max(lastExitNanos, now);
    }

    @Override
    public WorkloadReport report(long elapsedNanos) {
        boolean done = isComplete();
        Map<String, Double> details = new LinkedHashMap<>();
        details.put("threads", (double) stats.size());
        details.put("activations", (double) stats.stream().mapToLong(RtAppThreadStats::activations).sum());
        details.put("missedTimers", (double) missed);
        details.put("latenessP50Us", lateness.getValueAtPercentile(50) / 1e3);
        details.put("latenessP99Us", lateness.getValueAtPercentile(99) / 1e3);
        details.put("latenessMaxUs", lateness.getMaxValue() / 1e3);
        for (int i = 0; i < stats.size(); i++) {
            stats.get(i).report(names.get(i), details);
        }
        Double completion = done ? (lastExitNanos - startNanos) / 1e9 : null;
        return new WorkloadReport("timer wake-up lateness p99", lateness.getValueAtPercentile(99) / 1e3, "us",
                false, completion, details);
    }
}
