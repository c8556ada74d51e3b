package io.schedlab.engine.tracereplay;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads Linux scheduler events as {@code perf script} and {@code trace-cmd report} print them.
 *
 * <p>A line is {@code comm-pid [cpu] seconds.fraction: event: fields} (trace-cmd joins comm and pid with a
 * dash and may add latency flags after the CPU; perf script separates them with a space, may print
 * {@code pid/tid}, and prefixes the event with its system, {@code sched:}). The fields are the kernel's
 * {@code TP_printk} text (include/trace/events/sched.h): {@code sched_switch} prints
 * {@code prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s ==> next_comm=%s next_pid=%d next_prio=%d},
 * {@code sched_wakeup} / {@code sched_wakeup_new} print {@code comm=%s pid=%d prio=%d target_cpu=%03d}
 * (older kernels add {@code success=%d}). trace-cmd's sched plugin (lib/traceevent/plugins/plugin_sched_switch.c)
 * prints the shorter {@code comm:pid [prio] state ==> comm:pid [prio]} and {@code comm:pid [prio] CPU:%03d};
 * both are read. {@code prev_state} {@code R} or {@code R+} (include/trace/events/sched.h,
 * __trace_sched_switch_state: preempted while runnable) leaves the thread waiting; any other state is a sleep.
 * trace-cmd's {@code cpus=N} header line gives the host's CPUs; otherwise the highest CPU seen plus one.
 * {@code sched_waking}, {@code sched_migrate_task} and {@code sched_stat_runtime} lines are read and skipped;
 * any other event, or a line of another shape, is refused with its line number. pid 0 is the idle task.
 */
public final class LinuxSchedText {

    /** The format names this reader answers to. */
    public static final Set<String> FORMATS = Set.of("perf-script", "trace-cmd");

    private static final Pattern LINE = Pattern.compile(
            "^\\s*(.+?)[- ](\\d+)(?:/\\d+)?\\s+(?:\\(\\s*[-\\d]+\\)\\s+)?\\[(\\d+)\\]\\s+(?:\\S+\\s+)?"
                    + "(\\d+)\\.(\\d{1,9}):\\s+([\\w:]+?):(?:\\s+(.*))?$");
    private static final Pattern SWITCH_FIELDS = Pattern.compile(
            "^\\s*prev_comm=(.*) prev_pid=(\\d+) prev_prio=(-?\\d+) prev_state=(\\S+) ==> "
                    + "next_comm=(.*) next_pid=(\\d+) next_prio=(-?\\d+)\\s*$");
    private static final Pattern SWITCH_PLUGIN = Pattern.compile(
            "^\\s*(.*):(\\d+) \\[(-?\\d+)\\] (\\S+) ==> (.*):(\\d+) \\[(-?\\d+)\\]\\s*$");
    private static final Pattern WAKEUP_FIELDS = Pattern.compile(
            "^\\s*comm=(.*) pid=(\\d+) prio=(-?\\d+)(?: success=\\d+)?(?: target_cpu=(\\d+))?\\s*$");
    private static final Pattern WAKEUP_PLUGIN = Pattern.compile(
            "^\\s*(.*):(\\d+) \\[(-?\\d+)\\](?: success=\\d+)?(?: CPU:(\\d+))?\\s*$");
    private static final Pattern CPUS_HEADER = Pattern.compile("^cpus=(\\d+)$");
    private static final Pattern VERSION_HEADER = Pattern.compile("^version = .*$");
    private static final Set<String> SKIPPED = Set.of("sched_waking", "sched_migrate_task", "sched_stat_runtime");

    private final ImportLimits limits;
    private final GroupBy groupBy;
    private final Timelines timelines;
    private final Map<Integer, Integer> currentOnCpu = new HashMap<>();
    private final Map<Integer, Integer> switchedInAt = new HashMap<>();
    private int declaredCpus;
    private int highestCpu = -1;
    private long lastTime = Long.MIN_VALUE;
    private long records;

    private LinuxSchedText(ImportLimits limits, GroupBy groupBy) {
        this.limits = limits;
        this.groupBy = groupBy;
        this.timelines = new Timelines(limits);
    }

    /** Reads {@code text} ({@code format} perf-script or trace-cmd), grouping threads by comm or into one VM. */
    public static RecordedTrace read(byte[] text, String format, GroupBy groupBy, ImportLimits limits) {
        if (!FORMATS.contains(format)) {
            throw new IllegalArgumentException("format must be one of " + FORMATS);
        }
        if (groupBy == GroupBy.DOMAIN) {
            throw new IllegalArgumentException("a Linux trace has no domains: group by comm or single");
        }
        limits.checkSize(text.length);
        LinuxSchedText reader = new LinuxSchedText(limits, groupBy);
        String[] lines = new String(text, StandardCharsets.UTF_8).split("\r?\n", -1);
        for (int i = 0; i < lines.length; i++) {
            reader.line(i + 1, lines[i]);
        }
        int cpus = Math.max(reader.declaredCpus, reader.highestCpu + 1);
        if (reader.declaredCpus > 0 && reader.highestCpu >= reader.declaredCpus) {
            throw new TraceImportException("file", "CPU " + reader.highestCpu + " appears, but the header says cpus="
                    + reader.declaredCpus);
        }
        return reader.timelines.finish(format, cpus, reader.records, 0);
    }

    private void line(int number, String line) {
        String trimmed = line.strip();
        if (trimmed.isEmpty() || trimmed.startsWith("#")) {
            return;
        }
        if (++records > limits.maxRecords()) {
            throw TraceImportException.atLine(number, "more than " + limits.maxRecords() + " lines");
        }
        Matcher header = CPUS_HEADER.matcher(trimmed);
        if (header.matches()) {
            declaredCpus = header.group(1).length() > 6 ? Integer.MAX_VALUE : Integer.parseInt(header.group(1));
            if (declaredCpus == 0 || declaredCpus > limits.maxCpus()) {
                throw TraceImportException.atLine(number, "cpus=" + header.group(1) + " is not 1.." + limits.maxCpus());
            }
            return;
        }
        if (VERSION_HEADER.matcher(trimmed).matches()) {
            return;
        }
        Matcher m = LINE.matcher(line);
        if (!m.matches()) {
            throw TraceImportException.atLine(number, "not a line of the form 'comm-pid [cpu] seconds: event: fields'");
        }
        int cpu = cpuNumber(number, m.group(3));
        long t = time(number, m.group(4), m.group(5));
        String event = m.group(6);
        event = event.startsWith("sched:") ? event.substring("sched:".length()) : event;
        String fields = m.group(7) == null ? "" : m.group(7);
        switch (event) {
            case "sched_switch" -> switchOn(number, cpu, t, fields);
            case "sched_wakeup", "sched_wakeup_new" -> wakeup(number, t, fields);
            default -> {
                if (!SKIPPED.contains(event)) {
                    throw TraceImportException.atLine(number, "event '" + event + "' is not read (sched_switch,"
                            + " sched_wakeup and sched_wakeup_new are; " + String.join(", ", SKIPPED.stream().sorted()
                                    .toList()) + " are skipped)");
                }
            }
        }
    }

    private int cpuNumber(int number, String digits) {
        int cpu;
        try {
            cpu = Integer.parseInt(digits);
        } catch (NumberFormatException e) {
            cpu = Integer.MAX_VALUE;
        }
        if (cpu >= limits.maxCpus()) {
            throw TraceImportException.atLine(number, "CPU " + digits + " is over the limit of " + limits.maxCpus()
                    + " CPUs");
        }
        return cpu;
    }

    /** Seconds and a fraction of 1 to 9 digits, as nanoseconds; times never go back. */
    private long time(int number, String seconds, String fraction) {
        long nanos;
        try {
            nanos = Math.addExact(Math.multiplyExact(Long.parseLong(seconds), 1_000_000_000L),
                    Long.parseLong(fraction) * (long) Math.pow(10, 9 - fraction.length()));
        } catch (ArithmeticException | NumberFormatException e) {
            throw TraceImportException.atLine(number, "time " + seconds + "." + fraction + " is out of range");
        }
        if (nanos < lastTime) {
            throw TraceImportException.atLine(number, "time " + seconds + "." + fraction
                    + " goes back (before the line above)");
        }
        lastTime = nanos;
        timelines.at(nanos);
        return nanos;
    }

    private void switchOn(int number, int cpu, long t, String fields) {
        Matcher m = fields(number, fields, SWITCH_FIELDS, SWITCH_PLUGIN, "sched_switch fields are neither"
                + " 'prev_comm=... ==> next_comm=...' nor 'comm:pid [prio] state ==> comm:pid [prio]'");
        highestCpu = Math.max(highestCpu, cpu);
        int prev = pid(number, m.group(2));
        int next = pid(number, m.group(6));
        Integer current = currentOnCpu.get(cpu);
        if (current != null && current != prev) {
            throw TraceImportException.atLine(number, "sched_switch away from pid " + prev + " on CPU " + cpu
                    + ", but pid " + current + " was switched in there at line " + switchedInAt.get(cpu));
        }
        if (prev != 0) {
            boolean runnable = m.group(4).startsWith("R");
            ThreadTimeline p = thread(number, prev, m.group(1));
            if (!p.stops(t, runnable)) {
                if (current != null || !p.stopsFirstOnCpu(t, runnable)) {
                    throw TraceImportException.atLine(number, "pid " + prev + " leaves CPU " + cpu
                            + " but was not running");
                }
            }
        }
        if (next != 0) {
            ThreadTimeline n = thread(number, next, m.group(5));
            if (n.running()) {
                throw TraceImportException.atLine(number, "pid " + next + " is switched in on CPU " + cpu
                        + " while still running on another CPU (no sched_switch away from it there)");
            }
            if (!n.runs(t)) {
                throw TraceImportException.atLine(number, "pid " + next + " is switched in on CPU " + cpu
                        + " but it went to sleep and no sched_wakeup for it came first");
            }
        }
        currentOnCpu.put(cpu, next);
        switchedInAt.put(cpu, number);
    }

    private void wakeup(int number, long t, String fields) {
        Matcher m = fields(number, fields, WAKEUP_FIELDS, WAKEUP_PLUGIN, "sched_wakeup fields are neither"
                + " 'comm=... pid=... prio=... target_cpu=...' nor 'comm:pid [prio] CPU:n'");
        if (m.group(4) != null) {
            highestCpu = Math.max(highestCpu, cpuNumber(number, m.group(4)));
        }
        int pid = pid(number, m.group(2));
        if (pid != 0) {
            thread(number, pid, m.group(1)).wakes(t);
        }
    }

    /** The fields as the kernel's TP_printk prints them, or else as trace-cmd's plugin does; else refused. */
    private static Matcher fields(int number, String fields, Pattern kernel, Pattern plugin, String problem) {
        Matcher m = kernel.matcher(fields);
        if (m.matches()) {
            return m;
        }
        m = plugin.matcher(fields);
        if (!m.matches()) {
            throw TraceImportException.atLine(number, problem);
        }
        return m;
    }

    private static int pid(int number, String digits) {
        try {
            return Integer.parseInt(digits);
        } catch (NumberFormatException e) {
            throw TraceImportException.atLine(number, "pid " + digits + " is out of range");
        }
    }

    private ThreadTimeline thread(int number, int pid, String comm) {
        String name = comm.strip() + "-" + pid;
        String group = groupBy == GroupBy.COMM ? comm.strip() : "trace";
        return timelines.of(Integer.toString(pid), group, name, "line " + number);
    }
}
