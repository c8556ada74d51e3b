package io.schedlab.engine.tracereplay;

import io.schedlab.engine.recording.TraceSink;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * The run slices and waits of every vCPU of a simulated run, read from the engine's own trace
 * ({@code switch}, {@code wake}, {@code block}, {@code shutdown}; docs/engine.md, "Trace") with the same
 * rules as a recorded trace: a {@code switch} on a pCPU ends the run there (runnable again unless the vCPU
 * blocked) and starts the named vCPU; a {@code wake} makes a blocked vCPU runnable. Threads are named
 * {@code vm/vcpu} and grouped by VM.
 */
public final class SimulatedSamples implements TraceSink {

    private final Timelines timelines = new Timelines(new ImportLimits(Long.MAX_VALUE, Long.MAX_VALUE,
            Integer.MAX_VALUE, Integer.MAX_VALUE));
    private final Map<Integer, ThreadTimeline> onCpu = new HashMap<>();
    private final Map<ThreadTimeline, Integer> cpuOf = new HashMap<>();
    private final Map<ThreadTimeline, Boolean> blocked = new HashMap<>();
    private final Map<String, Set<ThreadTimeline>> ofVm = new HashMap<>();
    private int highestCpu = -1;
    private long records;

    @Override
    public void record(long timeNanos, int pcpu, String event, String vm, int vcpu) {
        switch (event) {
            case "switch" -> {
                if (pcpu < 0) {
                    return;
                }
                at(timeNanos, pcpu);
                switchTo(timeNanos, pcpu, vm == null ? null : vcpu(vm, vcpu));
            }
            case "wake" -> {
                at(timeNanos, pcpu);
                ThreadTimeline v = vcpu(vm, vcpu);
                blocked.put(v, false);
                v.wakes(timeNanos);
            }
            case "block" -> blocked.put(vcpu(vm, vcpu), true);
            case "shutdown" -> ofVm.getOrDefault(vm, Set.of()).forEach(v -> blocked.put(v, true));
            default -> {
                // tickle, vm-start, migrate: no change of state
            }
        }
    }

    private void at(long t, int pcpu) {
        records++;
        highestCpu = Math.max(highestCpu, pcpu);
        timelines.at(t);
    }

    private void switchTo(long t, int pcpu, ThreadTimeline next) {
        ThreadTimeline prev = onCpu.remove(pcpu);
        if (prev != null) {
            prev.stops(t, !blocked.getOrDefault(prev, false));
            cpuOf.remove(prev);
        }
        if (next == null) {
            return;
        }
        Integer elsewhere = cpuOf.get(next);
        if (elsewhere != null) {
            // a wake-up raced with a deferred switch-out: the run there ends here
            onCpu.remove(elsewhere);
            next.stops(t, true);
        }
        blocked.put(next, false);
        next.runs(t);
        onCpu.put(pcpu, next);
        cpuOf.put(next, pcpu);
    }

    private ThreadTimeline vcpu(String vm, int index) {
        String name = vm + "/" + index;
        ThreadTimeline v = timelines.of(name, vm, name, "record " + records);
        ofVm.computeIfAbsent(vm, k -> new LinkedHashSet<>()).add(v);
        return v;
    }

    /** Ends every open interval at the last record and returns the vCPUs as threads. */
    public RecordedTrace finish() {
        return timelines.finish("schedlab", highestCpu + 1, records, 0);
    }
}
