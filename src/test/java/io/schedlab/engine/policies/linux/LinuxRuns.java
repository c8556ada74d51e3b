package io.schedlab.engine.policies.linux;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.Engine;
import io.schedlab.engine.run.RunControl;
import io.schedlab.engine.Validation;
import io.schedlab.engine.output.ResultDocument;
import io.schedlab.engine.output.VmResult;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.HostSpec;
import io.schedlab.engine.spec.HostThreadSpec;
import io.schedlab.engine.spec.Limits;
import io.schedlab.engine.spec.SchedulerSpec;
import io.schedlab.engine.spec.VmSpec;
import io.schedlab.engine.spec.WorkloadSpec;
import java.util.List;
import java.util.Map;

/** Builders and a runner for experiments on the Linux host schedulers. */
final class LinuxRuns {
    static final Engine ENGINE = Engine.standard().withSelfCheck();

    private LinuxRuns() {
    }

    static ResultDocument run(ExperimentSpec raw) {
        Validation v = ENGINE.validate(raw, Limits.defaults());
        assertThat(v.violations()).as("violations").isEmpty();
        return ENGINE.run(v.normalized(), Limits.defaults(), RunControl.NONE);
    }

    static ExperimentSpec spec(HostSpec host, SchedulerSpec scheduler, double seconds, List<VmSpec> vms) {
        return new ExperimentSpec("linux", null, 5L, seconds, ExperimentSpec.StopCondition.DURATION, host, scheduler,
                null, vms, null, null);
    }

    static HostSpec host(int sockets, int cores, int threads) {
        return new HostSpec(sockets, cores, threads, null, null, null, null);
    }

    static WorkloadSpec endlessLoop(int threads) {
        return new WorkloadSpec("cpu-loop", Map.of("threads", threads, "workSeconds", 0));
    }

    static VmSpec vm(String name, int vcpus, Integer weight, WorkloadSpec w) {
        return new VmSpec(name, vcpus, weight, null, null, null, null, null, null, null, null, w);
    }

    static HostThreadSpec hostThreads(String name, int threads, int nice) {
        return new HostThreadSpec(name, threads, nice, endlessLoop(threads));
    }

    static VmResult vm(ResultDocument doc, String name) {
        return doc.vms().stream().filter(v -> v.name().equals(name)).findFirst().orElseThrow();
    }
}
