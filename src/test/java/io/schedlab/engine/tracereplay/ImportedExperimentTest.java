package io.schedlab.engine.tracereplay;

import static io.schedlab.engine.tracereplay.TraceFiles.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.schedlab.engine.Engine;
import io.schedlab.engine.run.RunControl;
import io.schedlab.engine.Validation;
import io.schedlab.engine.spec.Limits;
import io.schedlab.engine.spec.VmSpec;
import io.schedlab.engine.workloads.TraceWorkload;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A recorded trace as an experiment: it validates, replays, and is compared with its record. */
class ImportedExperimentTest {

    static ImportedExperiment.Imported perfSample(String policy) {
        RecordedTrace trace = LinuxSchedText.read(bytes("perf-script.txt"), "perf-script", GroupBy.COMM,
                ImportLimits.DEFAULT);
        return ImportedExperiment.of(trace, policy, null);
    }

    @Test
    void oneVmPerGroupReplaysEachThreadsBurstsOnItsOwnVcpu() {
        ImportedExperiment.Imported imported = perfSample("cfs");
        assertThat(imported.spec().host().coresPerSocket()).isEqualTo(2);
        assertThat(imported.spec().scheduler().policy()).isEqualTo("cfs");
        assertThat(imported.spec().trace().enabled()).isTrue();
        assertThat(imported.spec().vms()).extracting(VmSpec::name).containsExactly("worker", "logger");
        assertThat(imported.spec().vms()).extracting(VmSpec::vcpus).containsExactly(2, 1);
        VmSpec worker = imported.spec().vms().get(0);
        assertThat(worker.workload().type()).isEqualTo("trace");
        // worker-101: 2200 us of CPU then 900 us asleep, then 1000 us; worker-102 first sleeps 200 us
        assertThat((String) worker.workload().params().get("csv")).isEqualTo("""
                vcpu,run_us,sleep_us
                0,2200,900
                0,1000,0
                1,0,200
                1,2000,750
                1,1000,490
                """);
        assertThat(TraceWorkload.parse((String) worker.workload().params().get("csv"), false).threads()).isEqualTo(2);
        assertThat(imported.reference()).extracting(ImportedExperiment.ThreadReference::recordedName)
                .containsExactly("worker-101", "worker-102", "logger-201");
        assertThat(imported.reference().get(2).vm()).isEqualTo("logger");
        assertThat(imported.reference().get(2).vcpu()).isZero();
    }

    @Test
    void theImportedExperimentRunsAndItsReplayIsComparedWithTheRecord() {
        ImportedExperiment.Imported imported = perfSample("cfs");
        Engine engine = Engine.standard();
        Validation v = engine.validate(imported.spec(), Limits.defaults());
        assertThat(v.violations()).isEmpty();
        SimulatedSamples simulated = new SimulatedSamples();
        engine.run(v.normalized(), Limits.defaults(), RunControl.tracingTo(simulated));
        ReplayComparison c = ReplayComparison.of(imported.reference(), simulated.finish());
        assertThat(c.threads()).hasSize(3);
        assertThat(c.runs().recordedCount()).isEqualTo(7);
        assertThat(c.waits().recordedCount()).isEqualTo(7);
        assertThat(c.runs().simulatedCount()).isPositive();
        assertThat(c.runs().ks()).isBetween(0.0, 1.0);
        assertThat(c.threads().get(0).runs().recordedCount()).isEqualTo(3);
        assertThat(c.threads().get(0).runs().ks()).isNotNull();
    }

    @Test
    void theKolmogorovSmirnovDistanceIsZeroForTheSameSamplesAndOneForDisjointOnes() {
        assertThat(ReplayComparison.fit(new long[] {1, 2, 3}, new long[] {3, 2, 1}).ks()).isZero();
        assertThat(ReplayComparison.fit(new long[] {1, 2, 3}, new long[] {10, 20}).ks()).isEqualTo(1.0);
        ReplayComparison.SampleFit few = ReplayComparison.fit(new long[] {1}, new long[] {10, 20});
        assertThat(few.ks()).isNull();
        assertThat(few.recordedMedianNanos()).isEqualTo(1L);
        assertThat(few.simulatedMeanNanos()).isEqualTo(15.0);
    }

    @Test
    void groupNamesBecomeValidDistinctVmNamesAndOversizedBurstsAreRefused() {
        RecordedThread a = new RecordedThread("kworker/0:1", "kworker/0:1-7", new long[] {1000, 0}, new long[0],
                new long[0]);
        RecordedThread b = new RecordedThread("kworker/0_1", "kworker/0_1-8", new long[] {1000, 0}, new long[0],
                new long[0]);
        RecordedTrace trace = new RecordedTrace("perf-script", 1, 1000, 2, 0, List.of(a, b));
        assertThat(ImportedExperiment.of(trace, "cfs", "n").spec().vms()).extracting(VmSpec::name)
                .containsExactly("kworker_0_1", "kworker_0_1-2");
        long[] many = new long[2 * 30_000];
        java.util.Arrays.fill(many, 123_000);
        RecordedTrace big = new RecordedTrace("perf-script", 1, 1000, 2, 0,
                List.of(new RecordedThread("big", "big-1", many, new long[0], new long[0])));
        assertThatThrownBy(() -> ImportedExperiment.of(big, "cfs", null)).isInstanceOf(TraceImportException.class)
                .hasMessageContaining("VM big");
    }
}
