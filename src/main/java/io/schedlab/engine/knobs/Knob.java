package io.schedlab.engine.knobs;

import java.util.List;

/**
 * One calibration knob: its name as docs/fidelity.md lists it, where in an experiment its default applies,
 * the default, its bounds, whether it is a whole number, the source of the default (or why it is
 * unverified) and the classes that read the value.
 */
public record Knob(String name, Where where, String owner, String parameter, double defaultValue, double min,
        double max, boolean integral, String unit, String source, List<String> readers) {

    /** Where a knob's value is filled in when the experiment leaves it out. */
    public enum Where {
        /** {@code costs.<parameter>}. */
        COSTS,
        /** {@code host.numaNodes[].bandwidthMBps} of every node. */
        NODE_BANDWIDTH,
        /** {@code params.<parameter>} of every workload of type {@code owner} (VMs, host threads, timeline). */
        WORKLOAD,
        /** {@code scheduler.params.<parameter>} when the policy is {@code owner}. */
        SCHEDULER
    }

    public Knob {
        readers = List.copyOf(readers);
    }

    /** The value {@code factor} times the default, inside the bounds, rounded for a whole-number knob. */
    public double scaled(double factor) {
        return clamp(defaultValue * factor);
    }

    /** {@code value} inside the bounds, rounded for a whole-number knob. */
    public double clamp(double value) {
        double v = Math.max(min, Math.min(max, value));
        return integral ? Math.round(v) : v;
    }
}
