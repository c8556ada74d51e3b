package io.schedlab.engine.tracereplay;

import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.HostSpec;
import io.schedlab.engine.spec.SchedulerSpec;
import io.schedlab.engine.spec.TraceSpec;
import io.schedlab.engine.spec.VmSpec;
import io.schedlab.engine.spec.WorkloadSpec;
import io.schedlab.engine.workloads.TraceWorkload;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns a recorded trace into an experiment a user can edit and submit: a host of one socket with the
 * trace's CPUs as cores, the chosen scheduler, one VM per group whose vCPU i replays the group's i-th
 * thread (in order of first appearance) with a {@code trace} workload (CSV rows {@code vcpu,run_us,sleep_us},
 * rounded to whole microseconds; a row that rounds to nothing is left out), the engine's trace on (so the
 * replay can be compared with the record), and a duration of four times the recorded span plus a second,
 * ending earlier when every replay completes. Alongside, the recorded run slices and waits per vCPU: the
 * reference a replay is compared with.
 */
public final class ImportedExperiment {

    /** Duration of the replay: this many times the recorded span, plus {@link #SLACK_SECONDS}. */
    static final double SPAN_FACTOR = 4.0;
    static final double SLACK_SECONDS = 1.0;
    private static final int MAX_VM_NAME = 64;

    /** One recorded thread as vCPU {@code vcpu} of VM {@code vm}, with its recorded samples in nanoseconds. */
    public record ThreadReference(String vm, int vcpu, String recordedName, long[] runNanos, long[] waitNanos) {
    }

    /** The experiment and the recorded reference of each of its vCPUs. */
    public record Imported(ExperimentSpec spec, List<ThreadReference> reference) {
    }

    private ImportedExperiment() {
    }

    /** The experiment of {@code trace} under {@code policy}, named {@code name} (or after the format when null). */
    public static Imported of(RecordedTrace trace, String policy, String name) {
        Map<String, List<RecordedThread>> groups = new LinkedHashMap<>();
        for (RecordedThread t : trace.threads()) {
            groups.computeIfAbsent(t.group(), k -> new ArrayList<>()).add(t);
        }
        List<VmSpec> vms = new ArrayList<>();
        List<ThreadReference> reference = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (Map.Entry<String, List<RecordedThread>> g : groups.entrySet()) {
            String vm = vmName(g.getKey(), names);
            List<RecordedThread> threads = g.getValue();
            for (int i = 0; i < threads.size(); i++) {
                RecordedThread t = threads.get(i);
                reference.add(new ThreadReference(vm, i, t.name(), t.runNanos(), t.waitNanos()));
            }
            Map<String, Object> params = new LinkedHashMap<>();
            params.put("csv", csv(vm, threads, trace.spanNanos()));
            params.put("loop", false);
            vms.add(new VmSpec(vm, threads.size(), null, null, null, null, null, null, null, null, null,
                    new WorkloadSpec("trace", params)));
        }
        double duration = Math.ceil(trace.spanNanos() / 1e9 * SPAN_FACTOR * 1000) / 1000 + SLACK_SECONDS;
        ExperimentSpec spec = new ExperimentSpec(name != null ? name : "imported " + trace.format() + " trace",
                Map.of("imported-from", trace.format()), 1L, duration, ExperimentSpec.StopCondition.ALL_COMPLETE,
                new HostSpec(1, trace.cpus(), 1, null, null, null, null),
                new SchedulerSpec(policy, Map.of()), null, vms, null, new TraceSpec(true, null));
        return new Imported(spec, reference);
    }

    /** The group's bursts as a trace workload's CSV; over the workload's size limit is refused. */
    private static String csv(String vm, List<RecordedThread> threads, long spanNanos) {
        StringBuilder sb = new StringBuilder("vcpu,run_us,sleep_us\n");
        for (int i = 0; i < threads.size(); i++) {
            long[] b = threads.get(i).bursts();
            int rows = 0;
            for (int k = 0; k < b.length; k += 2) {
                long run = Math.round(b[k] / 1000.0);
                long sleep = Math.round(b[k + 1] / 1000.0);
                if (run > 0 || sleep > 0) {
                    sb.append(i).append(',').append(run).append(',').append(sleep).append('\n');
                    rows++;
                }
            }
            if (rows == 0) {
                // never ran a whole microsecond: it sleeps through the span
                sb.append(i).append(",0,").append(Math.max(1, Math.round(spanNanos / 1000.0))).append('\n');
            }
            if (sb.length() > TraceWorkload.MAX_CSV_CHARS) {
                throw new TraceImportException("file", "the bursts of VM " + vm + " take more than "
                        + TraceWorkload.MAX_CSV_CHARS + " characters of trace-workload CSV: import a shorter trace"
                        + " or group its threads differently");
            }
        }
        return sb.toString();
    }

    /** A VM name from a group (the spec's VM name rule), unique among {@code taken}. */
    private static String vmName(String group, Set<String> taken) {
        String clean = group.replaceAll("[^A-Za-z0-9_.-]", "_");
        if (clean.isEmpty() || !Character.isLetterOrDigit(clean.charAt(0))) {
            clean = "g" + clean;
        }
        clean = clean.length() > MAX_VM_NAME - 6 ? clean.substring(0, MAX_VM_NAME - 6) : clean;
        String name = clean;
        for (int n = 2; !taken.add(name); n++) {
            name = clean + "-" + n;
        }
        return name;
    }
}
