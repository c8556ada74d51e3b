package io.schedlab.engine.tracereplay;

import java.io.ByteArrayOutputStream;

/**
 * Writes xentrace records as xen/include/public/trace.h lays them out (little-endian t_rec: header with
 * event, extra-word count at bit 28 and TSC flag at bit 31, then the TSC and the extra words), and each
 * pCPU's window after a TRC_TRACE_CPU_CHANGE record (pCPU, byte count) as tools/xentrace/xentrace.c does.
 */
final class XentraceWriter {

    static final int TRC_SCHED_SWITCH_INFPREV = 0x0002800e;
    static final int TRC_SCHED_CLASS_RECORD = 0x00022201;
    static final int RUNNING = 0;
    static final int RUNNABLE = 1;
    static final int BLOCKED = 2;

    private final ByteArrayOutputStream file = new ByteArrayOutputStream();
    private ByteArrayOutputStream window;
    private int windowCpu = -1;

    /** Starts pCPU {@code cpu}'s window (the previous one is written out). */
    XentraceWriter cpu(int cpu) {
        flush();
        window = new ByteArrayOutputStream();
        windowCpu = cpu;
        return this;
    }

    /** TRC_SCHED_RUNSTATE_CHANGE: {@code uint16_t vcpu, domain}, {@code old:4, new:4}, with a TSC. */
    XentraceWriter runstate(long tsc, int domain, int vcpu, int old, int now) {
        return record(XentraceSched.TRC_SCHED_RUNSTATE_CHANGE, tsc, (domain << 16) | vcpu, old | (now << 4));
    }

    /** TRC_LOST_RECORDS: lost count, did:16 vid:16, first TSC (two words), with a TSC. */
    XentraceWriter lost(long tsc, int count) {
        return record(XentraceRecords.TRC_LOST_RECORDS, tsc, count, 0, (int) tsc, (int) (tsc >>> 32));
    }

    /** Any record; a negative {@code tsc} writes none. */
    XentraceWriter record(int event, long tsc, int... extra) {
        int header = event | (extra.length << 28) | (tsc >= 0 ? 1 << 31 : 0);
        word(window, header);
        if (tsc >= 0) {
            word(window, (int) tsc);
            word(window, (int) (tsc >>> 32));
        }
        for (int w : extra) {
            word(window, w);
        }
        return this;
    }

    byte[] bytes() {
        flush();
        return file.toByteArray();
    }

    private void flush() {
        if (window == null) {
            return;
        }
        word(file, XentraceRecords.TRC_TRACE_CPU_CHANGE | (2 << 28));
        word(file, windowCpu);
        word(file, window.size());
        file.writeBytes(window.toByteArray());
        window = null;
    }

    private static void word(ByteArrayOutputStream out, int w) {
        out.write(w);
        out.write(w >>> 8);
        out.write(w >>> 16);
        out.write(w >>> 24);
    }
}
