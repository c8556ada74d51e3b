package io.schedlab.engine.tracereplay;

import static io.schedlab.engine.tracereplay.TraceFiles.bytes;
import static io.schedlab.engine.tracereplay.TraceFiles.micros;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** perf script and trace-cmd report text of sched_switch and sched_wakeup, read into bursts. */
class LinuxSchedTextTest {

    static RecordedTrace perf(GroupBy groupBy) {
        return LinuxSchedText.read(bytes("perf-script.txt"), "perf-script", groupBy, ImportLimits.DEFAULT);
    }

    /**
     * perf-script.txt, by hand: worker 101 is woken at the start (100.000000), waits 100 us, runs 1050 us until
     * logger preempts it (R+), waits 300 us, runs 1150 us and sleeps (S) 900 us, waits 10 us, runs 1000 us to the
     * end. worker 102 is first woken 200 us in, waits 50, runs 2000, sleeps 750, waits 20, runs 1000, sleeps the
     * last 490. logger 201 is first woken 1100 us in, waits 50, runs 300, sleeps 1650, waits 30, runs 200, sleeps
     * the last 1180.
     */
    @Test
    void perfScriptBecomesEachThreadsBurstsRunsAndWaits() {
        RecordedTrace trace = perf(GroupBy.COMM);
        assertThat(trace.format()).isEqualTo("perf-script");
        assertThat(trace.cpus()).isEqualTo(2);
        assertThat(trace.spanNanos()).isEqualTo(4_510_000);
        assertThat(trace.threads()).extracting(RecordedThread::name).containsExactly("worker-101", "worker-102",
                "logger-201");
        assertThat(trace.threads()).extracting(RecordedThread::group).containsExactly("worker", "worker", "logger");
        RecordedThread w1 = trace.threads().get(0);
        assertThat(w1.bursts()).containsExactly(micros(2200, 900, 1000, 0));
        assertThat(w1.runNanos()).containsExactly(micros(1050, 1150, 1000));
        assertThat(w1.waitNanos()).containsExactly(micros(100, 300, 10));
        RecordedThread w2 = trace.threads().get(1);
        assertThat(w2.bursts()).containsExactly(micros(0, 200, 2000, 750, 1000, 490));
        assertThat(w2.runNanos()).containsExactly(micros(2000, 1000));
        assertThat(w2.waitNanos()).containsExactly(micros(50, 20));
        RecordedThread logger = trace.threads().get(2);
        assertThat(logger.bursts()).containsExactly(micros(0, 1100, 300, 1650, 200, 1180));
        assertThat(logger.runNanos()).containsExactly(micros(300, 200));
        assertThat(logger.waitNanos()).containsExactly(micros(50, 30));
    }

    @Test
    void traceCmdReportOfTheSameScheduleReadsTheSameAndTakesItsCpuCountFromTheHeader() {
        RecordedTrace perf = perf(GroupBy.COMM);
        RecordedTrace cmd = LinuxSchedText.read(bytes("trace-cmd-report.txt"), "trace-cmd", GroupBy.COMM,
                ImportLimits.DEFAULT);
        assertThat(cmd.cpus()).isEqualTo(4);
        assertThat(cmd.threads()).hasSameSizeAs(perf.threads());
        for (int i = 0; i < perf.threads().size(); i++) {
            RecordedThread a = perf.threads().get(i);
            RecordedThread b = cmd.threads().get(i);
            assertThat(b.name()).isEqualTo(a.name());
            assertThat(b.bursts()).containsExactly(a.bursts());
            assertThat(b.runNanos()).containsExactly(a.runNanos());
            assertThat(b.waitNanos()).containsExactly(a.waitNanos());
        }
    }

    @Test
    void singleGroupPutsEveryThreadInOneAndDomainIsRefusedForLinux() {
        assertThat(perf(GroupBy.SINGLE).threads()).extracting(RecordedThread::group).containsOnly("trace");
        assertThatThrownBy(() -> perf(GroupBy.DOMAIN)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no domains");
    }

    @ParameterizedTest
    @CsvSource({
        "bad-time-goes-back.txt, line 11, goes back",
        "bad-missing-switch.txt, line 7, but pid 101 was switched in there at line 3",
        "bad-unknown-event.txt, line 4, event 'irq:irq_handler_entry' is not read",
        "truncated.txt, line 6, not a line of the form"})
    void unreadableFilesAreRefusedNamingTheLine(String file, String where, String problem) {
        assertThatThrownBy(() -> LinuxSchedText.read(bytes(file), "perf-script", GroupBy.COMM, ImportLimits.DEFAULT))
                .isInstanceOfSatisfying(TraceImportException.class, e -> assertThat(e.where()).isEqualTo(where))
                .hasMessageContaining(problem);
    }

    @Test
    void aThreadSwitchedInAfterSleepingWithoutAWakeupIsRefused() {
        List<String> lines = new java.util.ArrayList<>(List.of(new String(bytes("perf-script.txt")).split("\n")));
        lines.removeIf(l -> l.contains("100.003500")); // worker 101's second wake-up
        byte[] text = String.join("\n", lines).getBytes();
        assertThatThrownBy(() -> LinuxSchedText.read(text, "perf-script", GroupBy.COMM, ImportLimits.DEFAULT))
                .isInstanceOfSatisfying(TraceImportException.class, e -> assertThat(e.where()).isEqualTo("line 17"))
                .hasMessageContaining("no sched_wakeup for it came first");
    }

    @Test
    void sizeRecordThreadAndCpuLimitsAreEnforced() {
        byte[] text = bytes("perf-script.txt");
        assertThatThrownBy(() -> LinuxSchedText.read(text, "perf-script", GroupBy.COMM,
                new ImportLimits(text.length - 1, 100, 100, 100)))
                .isInstanceOfSatisfying(TraceImportException.class, e -> assertThat(e.where()).isEqualTo("file"))
                .hasMessageContaining("over the limit of " + (text.length - 1));
        assertThatThrownBy(() -> LinuxSchedText.read(text, "perf-script", GroupBy.COMM,
                new ImportLimits(text.length, 5, 100, 100)))
                .isInstanceOfSatisfying(TraceImportException.class, e -> assertThat(e.where()).isEqualTo("line 7"))
                .hasMessageContaining("more than 5 lines");
        assertThatThrownBy(() -> LinuxSchedText.read(text, "perf-script", GroupBy.COMM,
                new ImportLimits(text.length, 100, 2, 100)))
                .isInstanceOfSatisfying(TraceImportException.class, e -> assertThat(e.where()).isEqualTo("line 7"))
                .hasMessageContaining("more than 2 threads");
        assertThatThrownBy(() -> LinuxSchedText.read(text, "perf-script", GroupBy.COMM,
                new ImportLimits(text.length, 100, 100, 1)))
                .isInstanceOfSatisfying(TraceImportException.class, e -> assertThat(e.where()).isEqualTo("line 4"))
                .hasMessageContaining("CPU 001 is over the limit of 1 CPUs");
        assertThatThrownBy(() -> LinuxSchedText.read(new byte[0], "perf-script", GroupBy.COMM, ImportLimits.DEFAULT))
                .isInstanceOf(TraceImportException.class).hasMessageContaining("empty");
    }
}
