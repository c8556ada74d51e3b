package io.schedlab.engine.tracereplay;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.Engine;
import io.schedlab.engine.run.RunControl;
import io.schedlab.engine.Validation;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.Limits;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/** A simulated schedule, written as perf script text and imported again, gives back the same bursts. */
class ImportRoundTripTest {

    /**
     * Under Linux's fair class on three CPUs: a parallel build's jobs beside interactive threads that sleep and
     * wake, so runs are preempted, threads sleep and wake, and vCPUs move between CPUs.
     */
    static final String MIXED = """
            {"name": "perf text round trip", "seed": 11, "durationSeconds": 0.04, "stopWhen": "duration",
             "host": {"sockets": 1, "coresPerSocket": 3},
             "scheduler": {"policy": "cfs"},
             "trace": {"enabled": true},
             "vms": [
               {"name": "desk", "vcpus": 3, "workload": {"type": "interactive", "params": {"threads": 3, "thinkMeanMs": 1.0, "burstMeanUs": 700.0}}},
               {"name": "hog", "vcpus": 2, "workload": {"type": "cpu-loop", "params": {"threads": 2, "workSeconds": 0.0}}}
             ]}
            """;

    @Test
    void exportedAsPerfTextAndImportedTheScheduleKeepsEveryBurstRunAndWait() {
        Engine engine = Engine.standard();
        Validation v = engine.validate(JsonMapper.builder().build().readValue(MIXED, ExperimentSpec.class),
                Limits.defaults());
        assertThat(v.violations()).isEmpty();
        SimulatedSamples direct = new SimulatedSamples();
        PerfTextWriter perf = new PerfTextWriter();
        engine.run(v.normalized(), Limits.defaults(), RunControl.tracingTo((t, p, e, vm, vcpu) -> {
            direct.record(t, p, e, vm, vcpu);
            perf.record(t, p, e, vm, vcpu);
        }));
        RecordedTrace simulated = direct.finish();
        RecordedTrace imported = LinuxSchedText.read(perf.text().getBytes(StandardCharsets.UTF_8), "perf-script",
                GroupBy.COMM, ImportLimits.DEFAULT);
        assertThat(simulated.threads()).hasSize(5);
        assertThat(imported.cpus()).isEqualTo(simulated.cpus()).isEqualTo(3);
        assertThat(imported.spanNanos()).isEqualTo(simulated.spanNanos());
        assertThat(imported.threads()).extracting(RecordedThread::group)
                .containsExactlyElementsOf(simulated.threads().stream().map(RecordedThread::name).toList());
        long waits = 0;
        for (int i = 0; i < simulated.threads().size(); i++) {
            RecordedThread s = simulated.threads().get(i);
            RecordedThread r = imported.threads().get(i);
            assertThat(r.bursts()).as(s.name()).containsExactly(s.bursts());
            assertThat(r.runNanos()).as(s.name()).containsExactly(s.runNanos());
            assertThat(r.waitNanos()).as(s.name()).containsExactly(s.waitNanos());
            waits += s.waitNanos().length;
        }
        assertThat(waits).as("the schedule has waits to compare").isGreaterThan(10);
        assertThat(simulated.threads().get(0).runNanos().length).isGreaterThan(5);
    }
}
