package io.schedlab.engine.policies.xen;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A Xen 4.x release whose credit2 behaviour a run models; "latest" is treated as newer than any
 * numbered release. Version-dependent credit2 features (see {@link Credit2Params}):
 * <ul>
 * <li>run queue default: socket up to 4.6, core in 4.7 (seed 004's runqueue-per-core patch),
 * socket again from 4.8 (xen/common/sched/credit2.c: opt_runqueue, docs/misc/xen-command-line);</li>
 * <li>SMT-aware tickling (rqd->smt_idle, fully idle cores first) from 4.7; before, runq_tickle
 * tried the vCPU's own pCPU, then any idle pCPU;</li>
 * <li>soft affinity honoured by credit2 from 4.9;</li>
 * <li>caps (budget, replenishment) from 4.10;</li>
 * <li>at most 16 pCPUs per run queue (sched_credit2_max_cpus_runqueue) from 4.14, {@code runqueue=all}
 * filling queues without keeping cores whole from 4.18;</li>
 * <li>load averaging window: 2^18 time units of 2^10 ns (2^28 ns, ~268 ms) up to 4.7
 * (sched_credit2.c: {@code opt_load_window_shift = 18}, {@code LOADAVG_GRANULARITY_SHIFT 10}); from 4.8
 * 2^30 ns (~1.07 s), still sampled in 2^10 ns units ({@code LOADAVG_WINDOW_SHIFT 30}; commit "xen: credit2:
 * rework load tracking logic", July 2016, after the 4.7 release).</li>
 * </ul>
 */
public record XenVersion(int minor) implements Comparable<XenVersion> {
    public static final int LATEST_MINOR = 99;
    /** Oldest release with credit2 in this model (credit2 became usable around 4.5). */
    public static final int OLDEST_MINOR = 5;
    /** Newest numbered release listed. */
    public static final int NEWEST_MINOR = 20;

    public static XenVersion parse(String s) {
        if ("latest".equals(s)) {
            return new XenVersion(LATEST_MINOR);
        }
        if (s == null || !s.startsWith("4.")) {
            throw new IllegalArgumentException("xenVersion must be 4.x or latest: " + s);
        }
        return new XenVersion(Integer.parseInt(s.substring(2)));
    }

    /** Every accepted value, oldest first. */
    public static List<String> allowedValues() {
        List<String> out = new ArrayList<>();
        for (int m = OLDEST_MINOR; m <= NEWEST_MINOR; m++) {
            out.add("4." + m);
        }
        out.add("latest");
        return Collections.unmodifiableList(out);
    }

    public boolean atLeast(int minorVersion) {
        return minor >= minorVersion;
    }

    /** credit2_runqueue default of this release. */
    public String defaultRunqueue() {
        return minor == 7 ? "core" : "socket";
    }

    public boolean smtAwareTickle() {
        return atLeast(7);
    }

    /**
     * credit2's CSCHED2_MAX_TIMER is CSCHED2_CREDIT_INIT (10 ms) from 4.8 (da92ec5bd1, "xen: credit2: 'relax'
     * CSCHED2_MAX_TIMER"); MILLISECS(2) before.
     */
    public boolean maxTimerIsCreditInit() {
        return atLeast(8);
    }

    /**
     * Up to 4.6 credit2's csched2_runtime gives the idle vCPU CSCHED2_MAX_TIMER, so an idle pCPU re-runs the
     * scheduler every max timer; from 4.7 it returns -1 and the pCPU stays idle until poked (2c6f317a2b, "xen:
     * sched: on credit2, don't reprogram the timer if idle").
     */
    public boolean credit2IdleTimer() {
        return !atLeast(7);
    }

    public boolean softAffinity() {
        return atLeast(9);
    }

    public boolean caps() {
        return atLeast(10);
    }

    /**
     * Whether {@code runqueue=all} lets a pCPU join a size-limited queue without room for its whole core
     * (cpu_add_to_runqueue: {@code opt_runqueue == OPT_RUNQUEUE_ALL}, commit 1f5747ee92 "credit2: respect
     * credit2_runqueue=all when arranging runqueues", from 4.18).
     */
    public boolean runqueueAllIgnoresCoreRoom() {
        return atLeast(18);
    }

    /** Default max pCPUs per run queue (0 = unlimited before 4.14). */
    public int defaultMaxCpusPerRunqueue() {
        return atLeast(14) ? 16 : 0;
    }

    /** log2 of credit2's load averaging window in ns: 28 (2^18 units of 2^10 ns) up to 4.7, 30 from 4.8. */
    public int loadWindowShift() {
        return atLeast(8) ? 30 : LOAD_GRANULARITY_SHIFT + 18;
    }

    /**
     * log2 of the time unit (ns) in which credit2 samples time for load averages: {@code now >>=
     * LOADAVG_GRANULARITY_SHIFT} in update_runq_load/update_svc_load, 10 in every modelled release.
     */
    public int loadGranularityShift() {
        return LOAD_GRANULARITY_SHIFT;
    }

    private static final int LOAD_GRANULARITY_SHIFT = 10;

    @Override
    public int compareTo(XenVersion o) {
        return Integer.compare(minor, o.minor);
    }

    @Override
    public String toString() {
        return minor == LATEST_MINOR ? "latest" : "4." + minor;
    }
}
