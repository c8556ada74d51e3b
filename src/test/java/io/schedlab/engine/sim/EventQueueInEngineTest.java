package io.schedlab.engine.sim;

import io.schedlab.engine.builtins.BuiltIns;
import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.Engine;
import io.schedlab.engine.run.RunControl;
import io.schedlab.engine.registry.Registry;
import io.schedlab.engine.output.ResultDocument;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.HostSpec;
import io.schedlab.engine.spec.Limits;
import io.schedlab.engine.spec.SchedulerSpec;
import io.schedlab.engine.spec.TimelineAction;
import io.schedlab.engine.spec.VmSpec;
import io.schedlab.engine.spec.WorkloadSpec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Whole runs give the same result document whether the event queue keeps its full sequence range
 * (as in production: it never runs out in a short run), runs out every few thousand events and
 * renumbers, or works as the wide (time, sequence) heap from the start.
 */
class EventQueueInEngineTest {

    private static final Registry REGISTRY = BuiltIns.registry();

    private static ExperimentSpec spec(String policy) {
        List<VmSpec> vms = List.of(
                vm("loop", 3, new WorkloadSpec("cpu-loop", Map.of("threads", 4, "workSeconds", 0.0))),
                vm("idle", 2, new WorkloadSpec("idle", Map.of("threads", 2, "wakeIntervalMs", 2, "burstUs", 300))),
                vm("build", 4, new WorkloadSpec("parallel-build", Map.of("parallelism", 6, "jobs", 300))),
                vm("stream", 2, new WorkloadSpec("memory-bandwidth", Map.of("threads", 2))),
                vm("web", 2, new WorkloadSpec("interactive", Map.of("threads", 3))),
                vm("lock", 3, new WorkloadSpec("spinlock", Map.of("threads", 4, "outsideUs", 200, "insideUs", 20))));
        List<TimelineAction> timeline = List.of(
                new TimelineAction(0.5, TimelineAction.Kind.PIN, "loop", 0, List.of(1), null, null, null),
                new TimelineAction(1.0, TimelineAction.Kind.SET_WEIGHT, "build", null, null, 512, null, null),
                new TimelineAction(1.5, TimelineAction.Kind.UNPIN, "loop", 0, null, null, null, null));
        ExperimentSpec raw = new ExperimentSpec("queue-" + policy, null, 11L, 2.0, ExperimentSpec.StopCondition.DURATION,
                new HostSpec(2, 2, 2, null, null, null, null), new SchedulerSpec(policy, null), null, vms, timeline,
                null);
        return new Engine(REGISTRY).validate(raw, Limits.defaults()).normalized();
    }

    /** Round-robin placement: the vCPUs spread over the host, so even the non-balancing policy runs busy enough to renumber. */
    private static VmSpec vm(String name, int vcpus, WorkloadSpec workload) {
        return new VmSpec(name, vcpus, null, null, null, null, null, null, null, null, null, workload, null, null,
                io.schedlab.engine.spec.InitialPlacement.ROUND_ROBIN);
    }

    private static ResultDocument run(ExperimentSpec spec, int maxSeqBits, int[] renumberings) {
        Simulator sim = new Simulator(spec, REGISTRY, Limits.defaults(), RunControl.NONE, maxSeqBits);
        sim.run();
        renumberings[0] = sim.queue().renumberings;
        return ResultBuilder.build(sim, 0L);
    }

    @ParameterizedTest
    @ValueSource(strings = {"credit2", "credit", "static"})
    void resultsDoNotDependOnTheQueuesSequenceRange(String policy) {
        ExperimentSpec spec = spec(policy);
        int[] renumberings = new int[1];
        ResultDocument full = run(spec, Integer.MAX_VALUE, renumberings);
        assertThat(renumberings[0]).isZero();
        ResultDocument renumbered = run(spec, EventQueue.MIN_SEQ_BITS, renumberings);
        assertThat(renumberings[0]).as("renumberings with %d sequence bits", EventQueue.MIN_SEQ_BITS)
                .isGreaterThanOrEqualTo(5);
        ResultDocument wide = run(spec, 1, renumberings);
        assertThat(full.totals().events()).isGreaterThan(20_000);
        assertThat(renumbered).isEqualTo(full);
        assertThat(wide).isEqualTo(full);
    }
}
