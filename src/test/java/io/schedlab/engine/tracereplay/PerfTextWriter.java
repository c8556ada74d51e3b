package io.schedlab.engine.tracereplay;

import io.schedlab.engine.recording.TraceSink;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Writes an engine trace as {@code perf script} prints sched_switch and sched_wakeup (nanosecond times, as
 * {@code perf script --ns}): each vCPU is a thread whose comm is {@code vm/vcpu}, pids from 1000 in order of
 * first appearance; a switch away from a vCPU that blocked prints prev_state S, else R.
 */
final class PerfTextWriter implements TraceSink {

    private final StringBuilder out = new StringBuilder();
    private final Map<String, Integer> pids = new LinkedHashMap<>();
    private final Map<Integer, String> onCpu = new HashMap<>();
    private final Map<String, Integer> cpuOf = new HashMap<>();
    private final Set<String> blocked = new HashSet<>();

    @Override
    public void record(long t, int pcpu, String event, String vm, int vcpu) {
        switch (event) {
            case "switch" -> {
                if (pcpu >= 0) {
                    switchTo(t, pcpu, vm == null ? null : vm + "/" + vcpu);
                }
            }
            case "wake" -> {
                String name = vm + "/" + vcpu;
                blocked.remove(name);
                line(t, Math.max(pcpu, 0), onCpu.get(Math.max(pcpu, 0)), "sched:sched_wakeup",
                        String.format("comm=%s pid=%d prio=120 target_cpu=%03d", name, pid(name), Math.max(pcpu, 0)));
            }
            case "block" -> blocked.add(vm + "/" + vcpu);
            case "shutdown" -> pids.keySet().stream().filter(n -> n.startsWith(vm + "/")).forEach(blocked::add);
            default -> {
            }
        }
    }

    private void switchTo(long t, int cpu, String next) {
        if (next != null && cpuOf.containsKey(next)) {
            int elsewhere = cpuOf.get(next);
            sw(t, elsewhere, next, false, null);
        }
        String prev = onCpu.get(cpu);
        sw(t, cpu, prev, prev != null && blocked.contains(prev), next);
    }

    private void sw(long t, int cpu, String prev, boolean sleeps, String next) {
        String prevComm = prev == null ? "swapper/" + cpu : prev;
        String nextComm = next == null ? "swapper/" + cpu : next;
        line(t, cpu, prev, "sched:sched_switch", String.format("prev_comm=%s prev_pid=%d prev_prio=120 prev_state=%s"
                + " ==> next_comm=%s next_pid=%d next_prio=120", prevComm, pid(prev), sleeps ? "S" : "R", nextComm,
                pid(next)));
        if (prev != null) {
            cpuOf.remove(prev);
        }
        onCpu.remove(cpu);
        if (next != null) {
            blocked.remove(next);
            onCpu.put(cpu, next);
            cpuOf.put(next, cpu);
        }
    }

    private void line(long t, int cpu, String current, String event, String fields) {
        out.append(String.format("%16s %6d [%03d] %d.%09d: %s: %s\n", current == null ? "swapper" : current,
                pid(current), cpu, t / 1_000_000_000L, t % 1_000_000_000L, event, fields));
    }

    private int pid(String name) {
        return name == null ? 0 : pids.computeIfAbsent(name, n -> 1000 + pids.size());
    }

    String text() {
        return out.toString();
    }
}
