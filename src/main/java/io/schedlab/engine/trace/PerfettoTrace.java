package io.schedlab.engine.trace;

import io.schedlab.engine.recording.TraceCsv;
import io.schedlab.engine.recording.TraceSink;
import java.io.OutputStream;
import java.io.Reader;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.StreamWriteFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Writes an engine trace as a Chrome trace-event JSON file that ui.perfetto.dev (and chrome://tracing)
 * opens: one track per pCPU, a slice per vCPU run, a flow arrow per migration and a run-queue counter
 * per pCPU. Records arrive one at a time ({@link TraceSink}), from a running simulation or from a stored
 * trace CSV ({@link #fromCsv}); the JSON is streamed with Jackson's generator, and the memory held is one
 * entry per pCPU and per vCPU, whatever the length of the trace.
 *
 * <p>Format: Google's "Trace Event Format" document (N. Duca, D. Griffith,
 * https://docs.google.com/document/d/1CvAClvFfyA5R-PhYUmn5OOQtYMH4h6I0nSsKchNAySU): the JSON object form
 * {@code {"traceEvents": [...], "displayTimeUnit": "ns", "otherData": {...}}}; every event carries
 * {@code name, cat, ph, ts, pid, tid}, {@code ts} and {@code dur} in microseconds (fractions allowed,
 * written here as exact decimals of the nanosecond times); complete events {@code "ph": "X"} with
 * {@code dur}; metadata events {@code "ph": "M"} ({@code process_name}, {@code thread_name},
 * {@code thread_sort_index}); counter events {@code "ph": "C"} whose {@code args} hold the series; flow
 * events {@code "ph": "s"} (start, bound to the enclosing slice) and {@code "ph": "f"} with
 * {@code "bp": "e"} (end, bound to the enclosing slice instead of the next one), paired by {@code id}.
 * Perfetto imports this JSON form ("Other formats: JSON trace", https://perfetto.dev/docs/getting-started/other-formats).
 *
 * <p>Mapping of the trace's records (docs/engine.md, "Trace"; Simulator.schedule and startRun):
 * <ul>
 * <li>{@code switch} on pCPU p at t ends what ran on p at t and starts the named vCPU there (an empty vm
 *     is idle: nothing runs). A run is one {@code X} slice on p's track ({@code pid} {@link #HOST_PID},
 *     {@code tid} = p), named {@code "VM vCPU i"}; runs still open when the trace ends are closed at the end
 *     of the simulation (or at the last record when the trace was cut at its bound). Slices on one track
 *     therefore never overlap.</li>
 * <li>A run on another pCPU than the vCPU's previous run is a migration (the engine's {@code migrate}
 *     record, emitted just before the switch, means the same): a flow from the middle of the previous run to
 *     the middle of the new one. Middles, not edges, so that the enclosing slice is never the neighbour
 *     that ends or starts at the same instant.</li>
 * <li>{@code C} counter {@code "runqueue pCPU p"} with {@code args.vcpus}: runnable vCPUs waiting, counted
 *     on the pCPU where the trace last placed them. A {@code wake} on p adds the vCPU to p; a {@code switch}
 *     away from a vCPU that did not {@code block} leaves it waiting on that pCPU; a {@code switch} to a vCPU
 *     takes it off where it waited; a {@code shutdown} takes its VM's vCPUs off. The trace does not record
 *     a policy moving a queued vCPU between run queues (load balancing before the pick, a migration after an
 *     affinity change) nor run queues shared by several pCPUs (credit2), so this is where the vCPU was last
 *     seen, not the policy's own queue: exact for per-pCPU run queues without stealing.</li>
 * </ul>
 * {@code tickle} and {@code vm-start} records draw nothing.
 */
public final class PerfettoTrace implements TraceSink {

    /** The {@code pid} of the one process: the host (hypervisor); its threads are the pCPUs. */
    public static final int HOST_PID = 1;
    /** Category of the vCPU-run slices. */
    public static final String CAT_RUN = "vcpu";
    /** Category of the migration flows. */
    public static final String CAT_MIGRATION = "migration";
    /** Category of the run-queue counters. */
    public static final String CAT_RUNQUEUE = "runqueue";

    private static final JsonMapper JSON = JsonMapper.builder().disable(StreamWriteFeature.AUTO_CLOSE_TARGET).build();

    /**
     * What the caller knows beyond the records.
     *
     * @param title the process name shown in the viewer (the experiment's name)
     * @param pcpus how many pCPUs the host has: their tracks are named even when nothing ran there
     * @param maxRecords the trace's bound (spec {@code trace.maxEvents}): a trace holding this many records
     *        was cut, so runs still open end at its last record rather than at the end of the simulation;
     *        0 when not known
     */
    public record Options(String title, int pcpus, long maxRecords) {
    }

    /** What was written: records read, slices, flows (migrations) and counter samples; cut: the trace hit its bound. */
    public record Summary(long records, long slices, long flows, long counters, boolean cut) {
    }

    private final JsonGenerator out;
    private final Options options;
    private final TreeMap<Integer, Run> running = new TreeMap<>();
    private final Map<String, List<Vcpu>> vcpusOfVm = new HashMap<>();
    private final Map<String, Vcpu> vcpus = new HashMap<>();
    private final Map<Integer, Integer> waiting = new HashMap<>();
    private final TreeSet<Integer> tracks = new TreeSet<>();
    private long records;
    private long lastTime;
    private long slices;
    private long flows;
    private long counters;
    private boolean finished;

    private PerfettoTrace(JsonGenerator out, Options options) {
        this.out = out;
        this.options = options;
    }

    /** Starts the JSON document on {@code target} (left open: the caller owns it). */
    public static PerfettoTrace open(OutputStream target, Options options) {
        PerfettoTrace t = new PerfettoTrace(JSON.createGenerator(target), options);
        t.out.writeStartObject();
        t.out.writeName("traceEvents");
        t.out.writeStartArray();
        t.metadata("process_name", -1, "name", options.title() == null || options.title().isBlank()
                ? "host" : "host: " + options.title());
        for (int p = 0; p < options.pcpus(); p++) {
            t.track(p);
        }
        return t;
    }

    /**
     * Converts a trace CSV ({@code time_ns,pcpu,event,vm,vcpu} with its header line, as the service stores
     * it and {@code simulate --trace} writes it) to {@code target}, closing runs still open at {@code endNanos}.
     */
    public static Summary fromCsv(Reader csv, OutputStream target, Options options, long endNanos) {
        PerfettoTrace t = open(target, options);
        TraceCsv.readInto(csv, t);
        return t.finish(endNanos);
    }

    @Override
    public void record(long timeNanos, int pcpu, String event, String vm, int vcpu) {
        if (finished) {
            throw new IllegalStateException("the Perfetto trace is finished");
        }
        records++;
        lastTime = Math.max(lastTime, timeNanos);
        switch (event) {
            case "switch" -> {
                if (pcpu >= 0) {
                    switchTo(timeNanos, pcpu, vm == null ? null : vcpu(vm, vcpu));
                }
            }
            case "wake" -> {
                Vcpu v = vcpu(vm, vcpu);
                v.blocked = false;
                if (v.runningOn < 0 && pcpu >= 0) {
                    setWaiting(v, pcpu, timeNanos);
                }
            }
            case "block" -> {
                Vcpu v = vcpu(vm, vcpu);
                v.blocked = true;
                setWaiting(v, -1, timeNanos);
            }
            case "shutdown" -> {
                for (Vcpu v : vcpusOfVm.getOrDefault(vm, List.of())) {
                    v.blocked = true;
                    setWaiting(v, -1, timeNanos);
                }
            }
            default -> {
                // tickle, vm-start, migrate (a migration is seen from the runs themselves)
            }
        }
    }

    /**
     * Closes the runs still open at {@code endNanos} (the simulated end; at the last record instead when the
     * trace was cut at {@link Options#maxRecords()}), ends the document and flushes it.
     */
    public Summary finish(long endNanos) {
        if (finished) {
            throw new IllegalStateException("the Perfetto trace is finished");
        }
        boolean cut = options.maxRecords() > 0 && records >= options.maxRecords();
        long end = cut ? lastTime : Math.max(lastTime, endNanos);
        for (Run r : new ArrayList<>(running.values())) {
            close(r, end);
        }
        running.clear();
        finished = true;
        out.writeEndArray();
        out.writeStringProperty("displayTimeUnit", "ns");
        out.writeName("otherData");
        out.writeStartObject();
        out.writeStringProperty("source", "SchedLab engine trace (time_ns,pcpu,event,vm,vcpu)");
        out.writeNumberProperty("traceRecords", records);
        out.writeBooleanProperty("traceCut", cut);
        out.writeStringProperty("runqueueCounter", "runnable vCPUs waiting, on the pCPU where the trace last"
                + " placed them (wake, switch-out without block); moves between run queues that the trace does"
                + " not record are not seen");
        out.writeEndObject();
        out.writeEndObject();
        out.flush();
        out.close();
        return new Summary(records, slices, flows, counters, cut);
    }

    // ------------------------------------------------------------------ runs and flows

    private void switchTo(long t, int p, Vcpu next) {
        track(p);
        Run prev = running.remove(p);
        if (prev != null) {
            close(prev, t);
            Vcpu v = prev.vcpu;
            if (!v.blocked && v.waitingOn < 0) {
                setWaiting(v, p, t); // preempted or yielded: runnable again where it ran
            }
        }
        if (next == null) {
            return;
        }
        if (next.runningOn >= 0) {
            // still open elsewhere (a wake-up raced with a deferred switch-out): end it there, so a vCPU
            // is never on two tracks at once
            Run elsewhere = running.remove(next.runningOn);
            if (elsewhere != null) {
                close(elsewhere, t);
            }
        }
        setWaiting(next, -1, t);
        next.blocked = false;
        if (next.lastPcpu >= 0 && next.lastPcpu != p) {
            long id = ++flows;
            // the flow leaves from the middle of the previous run and ends in the middle of this run,
            // written when this run closes (its middle is known then)
            event("s", "migration " + next.name, CAT_MIGRATION, mid(next.lastStart, next.lastEnd), next.lastPcpu);
            out.writeNumberProperty("id", id);
            out.writeEndObject();
            next.flowIn = id;
        }
        running.put(p, new Run(next, p, t));
        next.runningOn = p;
    }

    private void close(Run r, long end) {
        Vcpu v = r.vcpu;
        event("X", v.name, CAT_RUN, r.start, r.pcpu);
        out.writeName("dur");
        micros(end - r.start);
        out.writeName("args");
        out.writeStartObject();
        out.writeStringProperty("vm", v.vm);
        out.writeNumberProperty("vcpu", v.index);
        out.writeEndObject();
        out.writeEndObject();
        slices++;
        if (v.flowIn != 0) {
            event("f", "migration " + v.name, CAT_MIGRATION, mid(r.start, end), r.pcpu);
            out.writeNumberProperty("id", v.flowIn);
            out.writeStringProperty("bp", "e");
            out.writeEndObject();
            v.flowIn = 0;
        }
        v.lastPcpu = r.pcpu;
        v.lastStart = r.start;
        v.lastEnd = end;
        if (v.runningOn == r.pcpu) {
            v.runningOn = -1;
        }
    }

    private static long mid(long start, long end) {
        return start + (end - start) / 2;
    }

    // ------------------------------------------------------------------ run-queue counters

    private void setWaiting(Vcpu v, int p, long t) {
        if (v.waitingOn == p) {
            return;
        }
        if (v.waitingOn >= 0) {
            count(v.waitingOn, -1, t);
        }
        v.waitingOn = p;
        if (p >= 0) {
            track(p);
            count(p, 1, t);
        }
    }

    private void count(int p, int delta, long t) {
        int n = waiting.merge(p, delta, Integer::sum);
        counter(p, n, t);
    }

    private void counter(int p, int n, long t) {
        event("C", "runqueue pCPU " + p, CAT_RUNQUEUE, t, p);
        out.writeName("args");
        out.writeStartObject();
        out.writeNumberProperty("vcpus", n);
        out.writeEndObject();
        out.writeEndObject();
        counters++;
    }

    // ------------------------------------------------------------------ tracks and events

    /** Names pCPU p's track (once) and starts its run-queue counter at 0. */
    private void track(int p) {
        if (tracks.add(p)) {
            metadata("thread_name", p, "name", "pCPU " + p);
            metadata("thread_sort_index", p, "sort_index", p);
            counter(p, 0, 0);
        }
    }

    private void metadata(String name, int tid, String key, Object value) {
        event("M", name, "__metadata", 0, Math.max(tid, 0));
        out.writeName("args");
        out.writeStartObject();
        if (value instanceof Integer i) {
            out.writeNumberProperty(key, i);
        } else {
            out.writeStringProperty(key, String.valueOf(value));
        }
        out.writeEndObject();
        out.writeEndObject();
    }

    /** Opens an event object with the fields every phase carries; the caller adds its own and closes it. */
    private void event(String ph, String name, String cat, long timeNanos, int tid) {
        out.writeStartObject();
        out.writeStringProperty("name", name);
        out.writeStringProperty("cat", cat);
        out.writeStringProperty("ph", ph);
        out.writeName("ts");
        micros(timeNanos);
        out.writeNumberProperty("pid", HOST_PID);
        out.writeNumberProperty("tid", tid);
    }

    /** Nanoseconds as exact decimal microseconds (the format's unit): 1500 ns is 1.5. */
    private void micros(long nanos) {
        if (nanos % 1000 == 0) {
            out.writeNumber(nanos / 1000);
        } else {
            out.writeNumber(BigDecimal.valueOf(nanos, 3).stripTrailingZeros().toPlainString());
        }
    }

    private Vcpu vcpu(String vm, int index) {
        String key = vm + '\u0000' + index;
        Vcpu v = vcpus.get(key);
        if (v == null) {
            v = new Vcpu(vm, index);
            vcpus.put(key, v);
            vcpusOfVm.computeIfAbsent(vm, k -> new ArrayList<>()).add(v);
        }
        return v;
    }

    /** What the trace says about one vCPU so far. */
    private static final class Vcpu {
        final String vm;
        final int index;
        final String name;
        int runningOn = -1;
        int waitingOn = -1;
        boolean blocked;
        int lastPcpu = -1;
        long lastStart;
        long lastEnd;
        long flowIn;

        Vcpu(String vm, int index) {
            this.vm = vm;
            this.index = index;
            this.name = vm + " vCPU " + index;
        }
    }

    /** A vCPU running on a pCPU since {@code start}. */
    private record Run(Vcpu vcpu, int pcpu, long start) {
    }
}
