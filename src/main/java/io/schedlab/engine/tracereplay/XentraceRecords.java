package io.schedlab.engine.tracereplay;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Splits a xentrace file into records (xen/include/public/trace.h, struct t_rec): a 32-bit little-endian
 * header holding the event id (bits 0-27: class, subclass, number), the count of extra 32-bit words
 * (bits 28-30, at most 7) and whether a 64-bit TSC follows (bit 31, {@code cycles_included}), then the TSC
 * (low word first) and the extra words. xentrace (tools/xentrace/xentrace.c, write_buffer) writes each
 * per-pCPU buffer window after a {@code TRC_TRACE_CPU_CHANGE} record whose two extra words are the pCPU and
 * the window's byte count; the records that follow are that pCPU's. Records are returned sorted by TSC
 * (then file order), as xenalyze merges the pCPUs' streams; a pCPU's TSC must never go back.
 */
final class XentraceRecords {

    /** {@code TRC_GEN}'s {@code TRC_TRACE_CPU_CHANGE} (trace.h: TRC_GEN + 3). */
    static final int TRC_TRACE_CPU_CHANGE = 0x0001f003;
    /** {@code TRC_LOST_RECORDS} (trace.h: TRC_GEN + 1). */
    static final int TRC_LOST_RECORDS = 0x0001f001;
    /** {@code TRC_TRACE_WRAP_BUFFER} (TRC_GEN + 2) and {@code TRC_TRACE_IRQ} (TRC_GEN + 4): read, nothing to do. */
    static final int TRC_TRACE_WRAP_BUFFER = 0x0001f002;
    static final int TRC_TRACE_IRQ = 0x0001f004;
    private static final int EVENT_MASK = 0x0fffffff;
    private static final int EXTRA_SHIFT = 28; // trace.h TRACE_EXTRA_SHIFT
    private static final int EXTRA_MASK = 7; // trace.h TRACE_EXTRA_MASK

    /** One record: where it starts, its pCPU, event id, TSC (or -1), extra words. */
    record Rec(long offset, int pcpu, int event, long tsc, int[] extra) {
    }

    private XentraceRecords() {
    }

    static List<Rec> read(byte[] file, ImportLimits limits) {
        limits.checkSize(file.length);
        List<Rec> out = new ArrayList<>();
        int pcpu = -1;
        long[] lastTsc = new long[limits.maxCpus()];
        int pos = 0;
        while (pos < file.length) {
            if (out.size() >= limits.maxRecords()) {
                throw TraceImportException.atByte(pos, "more than " + limits.maxRecords() + " records");
            }
            if (file.length - pos < 4) {
                throw TraceImportException.atByte(pos, "truncated record header (" + (file.length - pos) + " bytes left)");
            }
            int header = word(file, pos);
            int event = header & EVENT_MASK;
            int extraWords = (header >>> EXTRA_SHIFT) & EXTRA_MASK;
            boolean cycles = header < 0;
            int size = 4 + (cycles ? 8 : 0) + 4 * extraWords;
            if (file.length - pos < size) {
                throw TraceImportException.atByte(pos, String.format("truncated record: event 0x%08x needs %d bytes,"
                        + " %d left", event, size, file.length - pos));
            }
            long tsc = -1;
            int at = pos + 4;
            if (cycles) {
                tsc = (word(file, at) & 0xffffffffL) | ((long) word(file, at + 4) << 32);
                at += 8;
            }
            int[] extra = new int[extraWords];
            for (int i = 0; i < extraWords; i++) {
                extra[i] = word(file, at + 4 * i);
            }
            if (event == TRC_TRACE_CPU_CHANGE) {
                if (extraWords != 2 || cycles) {
                    throw TraceImportException.atByte(pos, "TRC_TRACE_CPU_CHANGE must hold 2 extra words (pCPU, byte"
                            + " count) and no TSC");
                }
                if (extra[0] < 0 || extra[0] >= limits.maxCpus()) {
                    throw TraceImportException.atByte(pos, "pCPU " + Integer.toUnsignedString(extra[0])
                            + " is over the limit of " + limits.maxCpus() + " CPUs");
                }
                pcpu = extra[0];
            } else {
                if (pcpu < 0) {
                    throw TraceImportException.atByte(pos, "a record before any TRC_TRACE_CPU_CHANGE: its pCPU is not known");
                }
                if (cycles) {
                    if (Long.compareUnsigned(tsc, lastTsc[pcpu]) < 0) {
                        throw TraceImportException.atByte(pos, "TSC " + Long.toUnsignedString(tsc) + " on pCPU " + pcpu
                                + " goes back (last " + Long.toUnsignedString(lastTsc[pcpu]) + ")");
                    }
                    if (tsc < 0) {
                        throw TraceImportException.atByte(pos, "TSC " + Long.toUnsignedString(tsc) + " is out of range");
                    }
                    lastTsc[pcpu] = tsc;
                }
                out.add(new Rec(pos, pcpu, event, cycles ? tsc : lastTsc[pcpu], extra));
            }
            pos += size;
        }
        out.sort(Comparator.comparingLong(Rec::tsc).thenComparingLong(Rec::offset));
        return out;
    }

    /** The highest pCPU any record came from, plus one. */
    static int cpus(List<Rec> records) {
        int max = -1;
        for (Rec r : records) {
            max = Math.max(max, r.pcpu());
        }
        return max + 1;
    }

    private static int word(byte[] b, int at) {
        return (b[at] & 0xff) | (b[at + 1] & 0xff) << 8 | (b[at + 2] & 0xff) << 16 | (b[at + 3] & 0xff) << 24;
    }
}
