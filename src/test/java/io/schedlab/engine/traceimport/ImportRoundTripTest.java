package io.schedlab.engine.traceimport;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.Engine;
import io.schedlab.engine.RunControl;
import io.schedlab.engine.Validation;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.Limits;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/** A simulated schedule, written as perf script text and imported again, gives back the same bursts. */
class ImportRoundTripTest {

    /** Interactive vCPUs that wake and block beside CPU hogs on two pCPUs: preemptions, sleeps, migrations. */
    static final String BUSY = """
            {"name": "round trip", "seed": 5, "durationSeconds": 0.05, "stopWhen": "duration",
             "host": {"sockets": 1, "coresPerSocket": 2},
             "scheduler": {"policy": "credit"},
             "trace": {"enabled": true},
             "vms": [
               {"name": "web", "vcpus": 2, "workload": {"type": "interactive", "params": {"threads": 2, "thinkMeanMs": 2.0, "burstMeanUs": 400.0}}},
               {"name": "batch", "vcpus": 2, "workload": {"type": "cpu-loop", "params": {"threads": 2, "workSeconds": 0.0}}}
             ]}
            """;

    @Test
    void exportedAsPerfTextAndImportedTheScheduleKeepsEveryBurstRunAndWait() {
        Engine engine = Engine.standard();
        Validation v = engine.validate(JsonMapper.builder().build().readValue(BUSY, ExperimentSpec.class),
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
        assertThat(simulated.threads()).hasSize(4);
        assertThat(imported.cpus()).isEqualTo(simulated.cpus()).isEqualTo(2);
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
