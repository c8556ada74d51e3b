package io.schedlab.engine.workloads;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.Engine;
import io.schedlab.engine.run.RunControl;
import io.schedlab.engine.Validation;
import io.schedlab.engine.output.ResultDocument;
import io.schedlab.engine.output.VmResult;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.HostSpec;
import io.schedlab.engine.spec.Limits;
import io.schedlab.engine.spec.NumaNodeSpec;
import io.schedlab.engine.spec.SchedulerSpec;
import io.schedlab.engine.spec.VmSpec;
import io.schedlab.engine.spec.WorkloadSpec;
import java.util.List;
import java.util.Map;

/** End-to-end helpers: build, validate and run small experiments through the real engine. */
public final class EngineRuns {
    static final Engine ENGINE = Engine.standard();

    private EngineRuns() {
    }

    /** Validates (no violations allowed) and runs {@code raw}. */
    public static ResultDocument run(ExperimentSpec raw) {
        Validation v = ENGINE.validate(raw, Limits.defaults());
        assertThat(v.violations()).as("violations").isEmpty();
        return ENGINE.run(v.normalized(), Limits.defaults(), RunControl.NONE);
    }

    static ExperimentSpec spec(HostSpec host, String policy, ExperimentSpec.StopCondition stop, double seconds,
            List<VmSpec> vms) {
        return new ExperimentSpec("e2e", null, 11L, seconds, stop, host, new SchedulerSpec(policy, null), null, vms,
                null, null);
    }

    static HostSpec host(int sockets, int cores, int threads) {
        return new HostSpec(sockets, cores, threads, null, null, null, null);
    }

    static HostSpec numaHost(int sockets, int cores, double bandwidthMBps) {
        List<NumaNodeSpec> nodes = new java.util.ArrayList<>();
        for (int s = 0; s < sockets; s++) {
            nodes.add(new NumaNodeSpec(List.of(s), 8192, bandwidthMBps));
        }
        return new HostSpec(sockets, cores, 1, nodes, null, null, null);
    }

    static VmSpec vm(String name, int vcpus, List<Integer> placement, List<Integer> hard, Integer memoryNode,
            String type, Map<String, Object> params) {
        return new VmSpec(name, vcpus, null, null, hard, null, null, memoryNode == null ? null : 1024, memoryNode,
                placement, null, new WorkloadSpec(type, params));
    }

    static VmResult vmResult(ResultDocument doc, String name) {
        return doc.vms().stream().filter(v -> v.name().equals(name)).findFirst().orElseThrow();
    }
}
