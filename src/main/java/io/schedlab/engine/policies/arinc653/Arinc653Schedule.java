package io.schedlab.engine.policies.arinc653;

import io.schedlab.engine.params.InvalidParameterException;
import io.schedlab.engine.params.Params;
import java.util.ArrayList;
import java.util.List;

/**
 * The ARINC 653 schedule as given: minor frames {@code VM:VCPU:RUNTIME_US} in order and the major frame
 * (xen/common/sched/arinc653.c sched_entry_t, a653sched_priv_t.major_frame). Checked as
 * arinc653_sched_set checks a new schedule: 1..{@link #MAX_ENTRIES} entries, each runtime > 0, the runtimes
 * summing to at most the major frame.
 */
record Arinc653Schedule(List<Entry> entries, long majorFrameNanos) {

    static final String SCHEDULE = "schedule";
    static final String MAJOR_FRAME = "majorFrameUs";
    /** ARINC653_MAX_DOMAINS_PER_SCHEDULE (xen/include/public/sysctl.h). */
    static final int MAX_ENTRIES = 64;
    /** Longest major frame accepted here: 10 s (Xen takes any s_time_t; a bound keeps runs small). */
    static final long MAX_MAJOR_FRAME_US = 10_000_000L;

    /** One minor frame: the vCPU {@code vcpu} of VM {@code vm} runs for {@code runtimeNanos} of each major frame. */
    record Entry(String vm, int vcpu, long runtimeNanos) {
    }

    /** The schedule of normalized parameters; an empty {@code schedule} is Xen's boot schedule (see {@link #isBootSchedule}). */
    static Arinc653Schedule from(Params p) {
        List<Entry> entries = parse(p.getString(SCHEDULE));
        long sum = entries.stream().mapToLong(Entry::runtimeNanos).sum();
        long major = p.getLong(MAJOR_FRAME) * 1_000L;
        if (major == 0) {
            major = sum;
        } else if (sum > major) {
            throw new InvalidParameterException(MAJOR_FRAME, "the minor frames add up to " + sum / 1_000
                    + " us, more than the major frame of " + major / 1_000 + " us (arinc653_sched_set)");
        }
        if (major > MAX_MAJOR_FRAME_US * 1_000L) {
            throw new InvalidParameterException(entries.isEmpty() || p.getLong(MAJOR_FRAME) > 0 ? MAJOR_FRAME : SCHEDULE,
                    "the major frame may be at most " + MAX_MAJOR_FRAME_US + " us, got " + major / 1_000 + " us");
        }
        return new Arinc653Schedule(entries, major);
    }

    /** No schedule given: as a653sched_alloc_udata, every vCPU of domain 0 gets a minor frame of its own. */
    boolean isBootSchedule() {
        return entries.isEmpty();
    }

    /** Parses {@code VM:VCPU:RUNTIME_US, ...}; throws naming {@link #SCHEDULE} and the entry at fault. */
    static List<Entry> parse(String text) {
        List<Entry> out = new ArrayList<>();
        if (text == null || text.isBlank()) {
            return out;
        }
        String[] parts = text.split(",", -1);
        if (parts.length > MAX_ENTRIES) {
            throw new InvalidParameterException(SCHEDULE, "at most " + MAX_ENTRIES + " minor frames"
                    + " (ARINC653_MAX_DOMAINS_PER_SCHEDULE), got " + parts.length);
        }
        for (int i = 0; i < parts.length; i++) {
            String[] f = parts[i].trim().split(":", -1);
            String at = "minor frame " + i + " ('" + parts[i].trim() + "')";
            if (f.length != 3 || f[0].isEmpty()) {
                throw new InvalidParameterException(SCHEDULE, at + ": expected VM:VCPU:RUNTIME_US");
            }
            int vcpu;
            long runtimeUs;
            try {
                vcpu = Integer.parseInt(f[1].trim());
                runtimeUs = Long.parseLong(f[2].trim());
            } catch (NumberFormatException e) {
                throw new InvalidParameterException(SCHEDULE, at + ": VCPU and RUNTIME_US must be integers");
            }
            if (vcpu < 0) {
                throw new InvalidParameterException(SCHEDULE, at + ": VCPU must be >= 0");
            }
            if (runtimeUs <= 0 || runtimeUs > MAX_MAJOR_FRAME_US) {
                throw new InvalidParameterException(SCHEDULE, at + ": RUNTIME_US must be 1.." + MAX_MAJOR_FRAME_US
                        + " (arinc653_sched_set refuses a runtime <= 0)");
            }
            out.add(new Entry(f[0].trim(), vcpu, runtimeUs * 1_000L));
        }
        return List.copyOf(out);
    }
}
