package io.schedlab.engine.tracereplay;

import static io.schedlab.engine.tracereplay.XentraceWriter.BLOCKED;
import static io.schedlab.engine.tracereplay.XentraceWriter.RUNNABLE;
import static io.schedlab.engine.tracereplay.XentraceWriter.RUNNING;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * A xentrace binary of the scheduler class read into per-vCPU bursts. The sample file
 * (src/test/resources/traceimport/xentrace-sched.bin) is what {@link #sample()} writes; a deliberate change
 * rewrites it with {@code ./mvnw -o -q test -Dtest=XentraceSchedTest -Dgolden.update=true}.
 */
class XentraceSchedTest {

    static final Path SAMPLE = TraceFiles.DIR.resolve("xentrace-sched.bin");
    /** 1 GHz: one TSC tick is one nanosecond. */
    static final long HZ = 1_000_000_000L;

    /**
     * Two pCPU windows. pCPU 0: d1v0 wakes at 1000, runs 1100-2100, is preempted by d2v0 (runs 2100-2600, blocks),
     * runs again 2600-3600 and blocks; a per-scheduler record and a SWITCH_INFPREV record are skipped. pCPU 1: d1v1
     * wakes at 1500, runs 1600-3000 and blocks; 5 records are lost at 3700; d1v1 wakes at 4000 (no check of its
     * old state after the loss), runs 4100-4600 and blocks.
     */
    static byte[] sample() {
        return new XentraceWriter()
                .cpu(0)
                .runstate(1000, 1, 0, BLOCKED, RUNNABLE)
                .runstate(1100, 1, 0, RUNNABLE, RUNNING)
                .record(XentraceWriter.TRC_SCHED_CLASS_RECORD, -1, 7)
                .runstate(2100, 1, 0, RUNNING, RUNNABLE)
                .runstate(2100, 2, 0, RUNNABLE, RUNNING)
                .record(XentraceWriter.TRC_SCHED_SWITCH_INFPREV, 2600, 2, 500)
                .runstate(2600, 2, 0, RUNNING, BLOCKED)
                .runstate(2600, 1, 0, RUNNABLE, RUNNING)
                .runstate(3600, 1, 0, RUNNING, BLOCKED)
                .runstate(3600, 0x7fff, 0, RUNNABLE, RUNNING)
                .cpu(1)
                .runstate(1500, 1, 1, BLOCKED, RUNNABLE)
                .runstate(1600, 1, 1, RUNNABLE, RUNNING)
                .runstate(3000, 1, 1, RUNNING, BLOCKED)
                .lost(3700, 5)
                .runstate(4000, 1, 1, BLOCKED, RUNNABLE)
                .runstate(4100, 1, 1, RUNNABLE, RUNNING)
                .runstate(4600, 1, 1, RUNNING, BLOCKED)
                .bytes();
    }

    static byte[] sampleFile() throws IOException {
        if (Boolean.getBoolean("golden.update")) {
            Files.write(SAMPLE, sample());
        }
        return Files.readAllBytes(SAMPLE);
    }

    @Test
    void theSampleFileIsWhatTheWriterWritesFromTraceH() throws IOException {
        assertThat(sampleFile()).isEqualTo(sample());
    }

    @Test
    void runstateChangesBecomePerVcpuBurstsAcrossCpuWindowsAndLostRecords() throws IOException {
        RecordedTrace trace = XentraceSched.read(sampleFile(), GroupBy.DOMAIN, HZ, ImportLimits.DEFAULT);
        assertThat(trace.format()).isEqualTo("xentrace");
        assertThat(trace.cpus()).isEqualTo(2);
        assertThat(trace.lostRecords()).isEqualTo(1);
        assertThat(trace.spanNanos()).isEqualTo(3600);
        assertThat(trace.threads()).extracting(RecordedThread::name).containsExactly("d1v0", "d1v1", "d2v0");
        assertThat(trace.threads()).extracting(RecordedThread::group).containsExactly("d1", "d1", "d2");
        RecordedThread d1v0 = trace.threads().get(0);
        assertThat(d1v0.runNanos()).containsExactly(1000, 1000);
        assertThat(d1v0.waitNanos()).containsExactly(100, 500);
        // 2000 ns of CPU, asleep from 3600 to the loss at 3700 and unknown (sleep) from there to the end at 4600
        assertThat(d1v0.bursts()).containsExactly(2000, 1000);
        RecordedThread d1v1 = trace.threads().get(1);
        assertThat(d1v1.runNanos()).containsExactly(1400, 500);
        assertThat(d1v1.waitNanos()).containsExactly(100, 100);
        assertThat(d1v1.bursts()).containsExactly(0, 500, 1400, 1000, 500, 0);
        RecordedThread d2v0 = trace.threads().get(2);
        assertThat(d2v0.runNanos()).containsExactly(500);
        assertThat(d2v0.waitNanos()).isEmpty();
        assertThat(d2v0.bursts()).containsExactly(0, 1100, 500, 2000);
    }

    @Test
    void singleGroupAndTheTscRateAreHonoured() throws IOException {
        RecordedTrace trace = XentraceSched.read(sampleFile(), GroupBy.SINGLE, HZ / 2, ImportLimits.DEFAULT);
        assertThat(trace.threads()).extracting(RecordedThread::group).containsOnly("trace");
        assertThat(trace.spanNanos()).isEqualTo(7200); // 3600 ticks at 500 MHz
        assertThat(XentraceSched.nanos(Long.MAX_VALUE, XentraceSched.MAX_CPU_HZ)).isPositive();
        assertThatThrownBy(() -> XentraceSched.read(sampleFile(), GroupBy.COMM, HZ, ImportLimits.DEFAULT))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aTruncatedRecordIsRefusedAtItsOffset() {
        byte[] whole = sample();
        byte[] cut = Arrays.copyOf(whole, whole.length - 3);
        int lastRecord = whole.length - 4 - 8 - 8; // header, TSC, two extra words
        assertThatThrownBy(() -> XentraceSched.read(cut, GroupBy.DOMAIN, HZ, ImportLimits.DEFAULT))
                .isInstanceOfSatisfying(TraceImportException.class,
                        e -> assertThat(e.where()).isEqualTo("byte " + lastRecord))
                .hasMessageContaining("truncated record");
        byte[] headerCut = Arrays.copyOf(whole, whole.length - 18);
        assertThatThrownBy(() -> XentraceSched.read(headerCut, GroupBy.DOMAIN, HZ, ImportLimits.DEFAULT))
                .isInstanceOf(TraceImportException.class).hasMessageContaining("truncated record header");
    }

    @Test
    void recordsOfOtherClassesMissingStatesBackwardTscAndUnplacedRecordsAreRefused() {
        byte[] hvm = new XentraceWriter().cpu(0).runstate(10, 1, 0, BLOCKED, RUNNABLE).record(0x00082001, 20, 1)
                .bytes();
        assertThatThrownBy(() -> XentraceSched.read(hvm, GroupBy.DOMAIN, HZ, ImportLimits.DEFAULT))
                .isInstanceOfSatisfying(TraceImportException.class, e -> assertThat(e.where()).isEqualTo("byte 32"))
                .hasMessageContaining("event 0x00082001 is not a record of the scheduler class");
        byte[] missing = new XentraceWriter().cpu(0).runstate(10, 1, 0, BLOCKED, RUNNABLE)
                .runstate(20, 1, 0, RUNNING, BLOCKED).bytes();
        assertThatThrownBy(() -> XentraceSched.read(missing, GroupBy.DOMAIN, HZ, ImportLimits.DEFAULT))
                .isInstanceOfSatisfying(TraceImportException.class, e -> assertThat(e.where()).isEqualTo("byte 32"))
                .hasMessageContaining("d1v0 changes from running to blocked, but it was runnable");
        byte[] back = new XentraceWriter().cpu(0).runstate(20, 1, 0, BLOCKED, RUNNABLE)
                .runstate(10, 1, 0, RUNNABLE, RUNNING).bytes();
        assertThatThrownBy(() -> XentraceSched.read(back, GroupBy.DOMAIN, HZ, ImportLimits.DEFAULT))
                .isInstanceOfSatisfying(TraceImportException.class, e -> assertThat(e.where()).isEqualTo("byte 32"))
                .hasMessageContaining("goes back");
        byte[] noCpu = Arrays.copyOfRange(sample(), 12, 32);
        assertThatThrownBy(() -> XentraceSched.read(noCpu, GroupBy.DOMAIN, HZ, ImportLimits.DEFAULT))
                .isInstanceOfSatisfying(TraceImportException.class, e -> assertThat(e.where()).isEqualTo("byte 0"))
                .hasMessageContaining("before any TRC_TRACE_CPU_CHANGE");
    }

    @Test
    void sizeRecordAndCpuLimitsAreEnforced() {
        byte[] file = sample();
        assertThatThrownBy(() -> XentraceSched.read(file, GroupBy.DOMAIN, HZ, new ImportLimits(100, 1000, 100, 100)))
                .isInstanceOfSatisfying(TraceImportException.class, e -> assertThat(e.where()).isEqualTo("file"));
        assertThatThrownBy(() -> XentraceSched.read(file, GroupBy.DOMAIN, HZ,
                new ImportLimits(file.length, 3, 100, 100)))
                .isInstanceOf(TraceImportException.class).hasMessageContaining("more than 3 records");
        assertThatThrownBy(() -> XentraceSched.read(file, GroupBy.DOMAIN, HZ,
                new ImportLimits(file.length, 1000, 100, 1)))
                .isInstanceOf(TraceImportException.class).hasMessageContaining("pCPU 1 is over the limit of 1 CPUs");
    }
}
