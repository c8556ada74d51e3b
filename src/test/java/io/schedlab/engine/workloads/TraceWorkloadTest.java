package io.schedlab.engine.workloads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TraceWorkloadTest {

    private static final String TWO_VCPUS = """
            vcpu,run_us,sleep_us
            0,1000,500
            1,200,200
            0,2000,0
            1,300,100
            """;

    @Test
    void replayOnDedicatedCpusTakesTheIdealTime() {
        TraceWorkload w = TraceWorkload.parse(TWO_VCPUS, false);
        FakeGuest guest = new FakeGuest(2, 1);
        guest.run(w, Long.MAX_VALUE);
        assertThat(w.threads()).isEqualTo(2);
        assertThat(w.idealNanos()).isEqualTo(3_500_000);
        assertThat(w.isComplete()).isTrue();
        assertThat(guest.computeNanosExecuted).isEqualTo(3_500_000);
        WorkloadReport r = w.report(guest.now());
        assertThat(r.value()).isEqualTo(0.0035);
        assertThat(r.details()).containsEntry("stretch", 1.0).containsEntry("runBurstsDone", 4.0);
    }

    @Test
    void replayOnOneCpuIsStretched() {
        TraceWorkload w = TraceWorkload.parse(TWO_VCPUS, false);
        FakeGuest guest = new FakeGuest(1, 1);
        guest.run(w, Long.MAX_VALUE);
        assertThat(w.report(guest.now()).details().get("stretch")).isGreaterThan(1.0);
    }

    @Test
    void loopModeIsEndlessAndCountsBursts() {
        TraceWorkload w = TraceWorkload.parse("vcpu,run_us,sleep_us\n0,100,900\n", true);
        new FakeGuest(1, 1).run(w, 1_000_000_000L);
        assertThat(w.isFinite()).isFalse();
        assertThat(w.report(1_000_000_000L).value()).isBetween(999.0, 1000.0);
    }

    @Test
    void errorsNameTheRow() {
        assertThatThrownBy(() -> TraceWorkload.parse("vcpu,run_us,sleep_us\n0,10,10\n1,abc,5\n", false))
                .isInstanceOf(TraceCsvException.class).hasMessage("csv row 2: run_us 'abc' is not a whole number")
                .extracting(e -> ((TraceCsvException) e).row()).isEqualTo(2);
        assertThatThrownBy(() -> TraceWorkload.parse("vcpu,run_us,sleep_us\n0,10,-1\n", false))
                .hasMessageStartingWith("csv row 1: sleep_us -1 is out of range");
        assertThatThrownBy(() -> TraceWorkload.parse("vcpu,run_us,sleep_us\n0,10\n", false))
                .hasMessageStartingWith("csv row 1: expected 3 columns");
        assertThatThrownBy(() -> TraceWorkload.parse("vcpu,run_us,sleep_us\n5000,10,10\n", false))
                .hasMessageStartingWith("csv row 1: vcpu 5000 is out of range");
        assertThatThrownBy(() -> TraceWorkload.parse("vcpu,run_us,sleep_us\n0,0,0\n", false))
                .hasMessage("csv row 1: run_us and sleep_us are both 0");
    }

    @Test
    void wholeTextErrorsAreClear() {
        assertThatThrownBy(() -> TraceWorkload.parse("cpu,run,sleep\n0,1,1\n", false))
                .isInstanceOf(TraceCsvException.class).hasMessageStartingWith("csv: header must be exactly");
        assertThatThrownBy(() -> TraceWorkload.parse("vcpu,run_us,sleep_us\n", false))
                .hasMessage("csv: no data rows after the header");
        assertThatThrownBy(() -> TraceWorkload.parse("", false)).hasMessageStartingWith("csv: empty");
        String huge = "vcpu,run_us,sleep_us\n" + "0,1,1\n".repeat(TraceWorkload.MAX_CSV_CHARS / 6);
        assertThatThrownBy(() -> TraceWorkload.parse(huge, false)).hasMessageStartingWith("csv: too long");
        assertThatThrownBy(() -> TraceWorkload.parse("vcpu,run_us,sleep_us\n\"0,1,1\n", false))
                .isInstanceOf(TraceCsvException.class);
    }
}
