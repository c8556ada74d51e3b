package io.schedlab.engine.tracereplay;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a xentrace binary of the scheduler class (recorded with {@code xentrace -e 0x0002f000}) into
 * per-vCPU bursts. Records: {@link XentraceRecords}. What drives the vCPUs' states is
 * {@code TRC_SCHED_RUNSTATE_CHANGE} (trace.h: TRC_SCHED_MIN + 1), written by vcpu_runstate_change
 * (xen/common/sched/core.c) with a TSC and two extra words: {@code uint16_t vcpu, domain} and
 * {@code old:4, new:4}, the runstates of xen/include/public/vcpu.h (0 running, 1 runnable, 2 blocked,
 * 3 offline), as xenalyze's sched_runstate_process reads them (tools/xentrace/xenalyze.c). A change whose old
 * state is not the one the vCPU was last seen in is a missing record and is refused. The other
 * {@code TRC_SCHED_*} records (the rest of TRC_SCHED_MIN, TRC_SCHED_VERBOSE numbers 1-17 such as SWITCH_INFPREV/
 * INFNEXT, WAKE and SLEEP, and every per-scheduler TRC_SCHED_CLASS record) and {@code TRC_GEN}'s wrap and IRQ
 * records are read and skipped; any other class or number is refused. {@code TRC_LOST_RECORDS} (TRC_GEN + 1)
 * makes every vCPU's state unknown until its next change, as xenalyze's RUNSTATE_LOST does; the time until
 * then is replayed as sleep and is no sample. The idle domain (DOMID_IDLE, 0x7fff) and other reserved ids
 * (from DOMID_FIRST_RESERVED, 0x7ff0; xen/include/public/xen.h) are not guests and are skipped. TSC ticks
 * become nanoseconds at {@code cpuHz}; xenalyze assumes 2.4 GHz unless told ({@code --cpu-hz}).
 */
public final class XentraceSched {

    /** The format name this reader answers to. */
    public static final String FORMAT = "xentrace";
    /** xenalyze's default TSC rate when none is given (tools/xentrace/xenalyze.c, DEFAULT_CPU_HZ). */
    public static final long DEFAULT_CPU_HZ = 2_400_000_000L;

    /** Highest TSC rate accepted: 9 GHz (keeps the tick-to-nanosecond product within 64 bits). */
    public static final long MAX_CPU_HZ = 9_000_000_000L;

    static final int TRC_SCHED_RUNSTATE_CHANGE = 0x00021001;
    private static final int TRC_SCHED_MAIN_CLASS = 0x002; // trace.h TRC_SCHED = 0x0002f000
    private static final int SUB_MIN = 0x1; // TRC_SCHED_MIN 0x00021000
    private static final int SUB_CLASS = 0x2; // TRC_SCHED_CLASS 0x00022000 (per-scheduler records)
    private static final int SUB_VERBOSE = 0x8; // TRC_SCHED_VERBOSE 0x00028000
    private static final int LAST_MIN = 2; // TRC_SCHED_CONTINUE_RUNNING
    private static final int LAST_VERBOSE = 17; // TRC_SCHED_SWITCH_INFCONT
    private static final int DOMID_FIRST_RESERVED = 0x7ff0;
    private static final int RUNNING = 0;
    private static final int RUNNABLE = 1;
    private static final int BLOCKED = 2;
    private static final int OFFLINE = 3;
    private static final String[] STATES = {"running", "runnable", "blocked", "offline"};

    private XentraceSched() {
    }

    /** Reads {@code file}, one VM per domain or one for all, at {@code cpuHz} TSC ticks per second. */
    public static RecordedTrace read(byte[] file, GroupBy groupBy, long cpuHz, ImportLimits limits) {
        if (groupBy == GroupBy.COMM) {
            throw new IllegalArgumentException("a xentrace file has no comm: group by domain or single");
        }
        if (cpuHz <= 0 || cpuHz > MAX_CPU_HZ) {
            throw new IllegalArgumentException("cpuHz must be 1.." + MAX_CPU_HZ);
        }
        List<XentraceRecords.Rec> records = XentraceRecords.read(file, limits);
        Timelines timelines = new Timelines(limits);
        Map<Integer, Integer> stateOf = new HashMap<>();
        long lost = 0;
        long firstTsc = -1;
        for (XentraceRecords.Rec r : records) {
            if (firstTsc < 0 && r.tsc() >= 0) {
                firstTsc = r.tsc();
            }
            long t = nanos(Math.max(0, r.tsc() - Math.max(firstTsc, 0)), cpuHz);
            if (r.event() == XentraceRecords.TRC_LOST_RECORDS) {
                lost++;
                timelines.at(t);
                for (ThreadTimeline v : timelines.all()) {
                    v.lost(t);
                }
                stateOf.clear();
                continue;
            }
            if (r.event() != TRC_SCHED_RUNSTATE_CHANGE) {
                requireKnown(r);
                continue;
            }
            if (r.extra().length != 2 || r.tsc() < 0 || r.tsc() < firstTsc) {
                throw TraceImportException.atByte(r.offset(), "TRC_SCHED_RUNSTATE_CHANGE must hold a TSC and 2 extra"
                        + " words (vcpu:16 domain:16, old:4 new:4), has " + r.extra().length + " words");
            }
            timelines.at(t);
            int vcpu = r.extra()[0] & 0xffff;
            int domain = r.extra()[0] >>> 16;
            int old = r.extra()[1] & 0xf;
            int now = (r.extra()[1] >>> 4) & 0xf;
            if (old > OFFLINE || now > OFFLINE) {
                throw TraceImportException.atByte(r.offset(), "runstate " + Math.max(old, now) + " is not one of "
                        + String.join(", ", STATES));
            }
            if (domain >= DOMID_FIRST_RESERVED) {
                continue;
            }
            String name = "d" + domain + "v" + vcpu;
            int key = domain << 16 | vcpu;
            Integer known = stateOf.get(key);
            if (known != null && known != old) {
                throw TraceImportException.atByte(r.offset(), name + " changes from " + STATES[old] + " to "
                        + STATES[now] + ", but it was " + STATES[known] + " (a record is missing)");
            }
            ThreadTimeline v = timelines.of(name, groupBy == GroupBy.DOMAIN ? "d" + domain : "trace", name,
                    "byte " + r.offset());
            apply(v, old, now, t, r.offset(), name);
            stateOf.put(key, now);
        }
        return timelines.finish(FORMAT, XentraceRecords.cpus(records), records.size(), lost);
    }

    private static void apply(ThreadTimeline v, int old, int now, long t, long offset, String name) {
        boolean fine;
        if (now == RUNNING) {
            if (old == BLOCKED || old == OFFLINE) {
                v.wakes(t); // blocked straight to running: woken and picked at once
            }
            fine = v.runs(t);
        } else if (old == RUNNING) {
            fine = v.stops(t, now == RUNNABLE);
        } else if (now == RUNNABLE) {
            v.wakes(t);
            fine = true;
        } else {
            fine = v.sleeps(t); // runnable to blocked or offline, or blocked to offline: asleep without running
        }
        if (!fine) {
            throw TraceImportException.atByte(offset, name + " changes from " + STATES[old] + " to " + STATES[now]
                    + ", which its earlier records contradict");
        }
    }

    private static void requireKnown(XentraceRecords.Rec r) {
        int event = r.event();
        if (event == XentraceRecords.TRC_TRACE_WRAP_BUFFER || event == XentraceRecords.TRC_TRACE_IRQ) {
            return;
        }
        int main = event >>> 16;
        int sub = (event >>> 12) & 0xf;
        int number = event & 0xfff;
        boolean known = main == TRC_SCHED_MAIN_CLASS && (sub == SUB_CLASS
                || (sub == SUB_MIN && number >= 1 && number <= LAST_MIN)
                || (sub == SUB_VERBOSE && number >= 1 && number <= LAST_VERBOSE));
        if (!known) {
            throw TraceImportException.atByte(r.offset(), String.format("event 0x%08x is not a record of the scheduler"
                    + " class (TRC_SCHED_*) nor TRC_GEN's lost-records, CPU-change, wrap or IRQ record;"
                    + " record with xentrace -e 0x0002f000", event));
        }
    }

    /** TSC ticks as nanoseconds at {@code hz}, without overflow for any 63-bit tick count. */
    static long nanos(long ticks, long hz) {
        return ticks / hz * 1_000_000_000L + ticks % hz * 1_000_000_000L / hz;
    }
}
