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
 * <li>at most 16 pCPUs per run queue (sched_credit2_max_cpus_runqueue) from 4.14.</li>
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

    public boolean softAffinity() {
        return atLeast(9);
    }

    public boolean caps() {
        return atLeast(10);
    }

    /** Default max pCPUs per run queue (0 = unlimited before 4.14). */
    public int defaultMaxCpusPerRunqueue() {
        return atLeast(14) ? 16 : 0;
    }

    @Override
    public int compareTo(XenVersion o) {
        return Integer.compare(minor, o.minor);
    }

    @Override
    public String toString() {
        return minor == LATEST_MINOR ? "latest" : "4." + minor;
    }
}
