package io.schedlab.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.output.ResultDocument;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.Limits;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;
import io.schedlab.engine.run.RunControl;

/**
 * E4's overcommitted kernbench cell in small (two 16-vCPU guests on 16 hardware threads, cfs + the KVM of
 * 2012, base PLE handler, 10 ms jobs with 14 lock sections of 5 us): directed yields switch vCPUs every few
 * microseconds, less than a cache refill. A vCPU stalled for its whole refill (costs.refillProgressFraction 0)
 * seldom reaches a lock's critical section, so its waiters spin, exit and yield on: in 0.3 s the build does
 * about two thirds of the jobs for some twenty times the events per job (at E4's size, none at all; since
 * cfs notices a slice's end at the tick, a stalled vCPU that does get the CPU keeps it longer and finishes
 * more jobs than it did when slices ended to the nanosecond). Progressing during the refill, it builds.
 */
class OvercommittedKernbenchTest {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** Jobs completed by both guests in the 0.3 s, and the run's events. */
    private record Run(double jobs, long events) {
    }

    private static Run run(double refillProgressFraction) throws IOException {
        ExperimentSpec s = JSON.readValue(Files.readString(Path.of("src/test/resources/kernbench/kvm-2x-overcommit.spec.json")),
                ExperimentSpec.class);
        ExperimentSpec spec = new ExperimentSpec(s.name(), s.labels(), s.seed(), s.durationSeconds(), s.stopWhen(),
                s.host(), s.scheduler(), Map.of("refillProgressFraction", refillProgressFraction), s.vms(), s.timeline(),
                s.trace());
        Engine engine = Engine.standard();
        Validation v = engine.validate(spec, Limits.defaults());
        assertThat(v.violations()).isEmpty();
        ResultDocument doc = engine.run(v.normalized(), Limits.defaults(), RunControl.NONE);
        double jobs = doc.vms().stream().filter(vm -> "parallel-build".equals(vm.workloadType()))
                .mapToDouble(vm -> vm.workloadDetails().get("jobsCompleted")).sum();
        return new Run(jobs, doc.totals().events());
    }

    @Test
    void progressDuringTheRefillLetsTheOvercommittedBuildProceed() throws IOException {
        Run stalled = run(0.0);
        Run overlapped = run(0.5);
        assertThat(overlapped.jobs()).isGreaterThan(150).isGreaterThan(1.3 * stalled.jobs());
        double stalledEventsPerJob = stalled.events() / Math.max(1, stalled.jobs());
        double overlappedEventsPerJob = overlapped.events() / overlapped.jobs();
        assertThat(stalledEventsPerJob).as("switches and PLE exits per job while lock holders stall")
                .isGreaterThan(8 * overlappedEventsPerJob);
    }
}
