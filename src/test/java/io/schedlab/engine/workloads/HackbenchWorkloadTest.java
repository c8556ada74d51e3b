package io.schedlab.engine.workloads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import io.schedlab.engine.Seconds;
import io.schedlab.engine.output.ResultDocument;
import io.schedlab.engine.output.VmResult;
import io.schedlab.engine.spec.ExperimentSpec.StopCondition;
import io.schedlab.engine.spec.Limits;
import io.schedlab.engine.spec.Violation;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** hackbench: every message is read once, each wakes its sleeping reader, writers wait for buffer space, locks contend. */
class HackbenchWorkloadTest {

    private static VmResult run(int vcpus, int pcpus, Map<String, Object> params) {
        ResultDocument doc = EngineRuns.run(EngineRuns.spec(EngineRuns.host(1, pcpus, 1), "credit2",
                StopCondition.ALL_COMPLETE, 10, List.of(EngineRuns.vm("hb", vcpus, null, null, null, "hackbench",
                        params))));
        return EngineRuns.vmResult(doc, "hb");
    }

    private static Map<String, Object> params(Object... keyValues) {
        Map<String, Object> m = new HashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            m.put((String) keyValues[i], keyValues[i + 1]);
        }
        return m;
    }

    @Test
    void everyMessageIsReadOnceAndTheRunEndsWhenTheLastReaderIsDone() {
        VmResult hb = run(4, 4, params("groups", 2, "fds", 3, "loops", 50));
        assertThat(hb.workloadDetails().get("messages")).isEqualTo(2.0 * 3 * 3 * 50);
        assertThat(hb.workloadDetails().get("messagesTotal")).isEqualTo(2.0 * 3 * 3 * 50);
        assertThat(hb.headline().unit()).isEqualTo("s");
        assertThat(hb.headline().value()).isPositive();
        assertThat(hb.completionNanos()).isNotNull();
        assertThat(Seconds.of(hb.completionNanos())).isCloseTo(hb.headline().value(), offset(1e-3));
    }

    @Test
    void aReaderSleepsBetweenMessagesAndEachMessageWakesIt() {
        // one writer, one reader, more vCPUs than threads: the reader empties its socket and sleeps until the next write
        VmResult hb = run(2, 2, params("groups", 1, "fds", 1, "loops", 200, "cv", 0.0, "sendUs", 10.0, "recvUs", 1.0));
        assertThat(hb.wakeLatency().count()).as("guest wake-ups").isGreaterThanOrEqualTo(150);
        assertThat(hb.wakeLatency().count()).as("at most one per message and the start").isLessThanOrEqualTo(201);
    }

    @Test
    void aFullBufferMakesTheWriterWaitForTheReader() {
        // a fast writer and a slow reader: with one slot the writer sleeps after every message
        Map<String, Object> oneSlot = params("groups", 1, "fds", 1, "loops", 100, "cv", 0.0, "sendUs", 1.0,
                "recvUs", 20.0, "bufferMessages", 1);
        Map<String, Object> roomy = new HashMap<>(oneSlot);
        roomy.put("bufferMessages", 1000);
        long tight = run(2, 2, oneSlot).wakeLatency().count();
        long loose = run(2, 2, roomy).wakeLatency().count();
        assertThat(tight).as("the writer wakes for space too").isGreaterThan(loose + 50);
    }

    @Test
    void writersOfOneReaderContendForItsSocketLock() {
        VmResult hb = run(8, 4, params("groups", 1, "fds", 8, "loops", 20, "lockUs", 5.0));
        assertThat(Seconds.of(hb.spinNanosAllVcpus())).as("8 writers share one reader's lock").isPositive();
    }

    @Test
    void underKvmBesideACpuBoundVmEveryMessageArrivesAndTheSelfCheckHolds() {
        // an overcommitted host: a hackbench VM beside a CPU-bound one, the simulator checking its invariants
        for (String handler : List.of("upstream", "critical-section")) {
            io.schedlab.engine.spec.ExperimentSpec spec = new io.schedlab.engine.spec.ExperimentSpec("hb", null, 2L, 1.0,
                    StopCondition.ALL_COMPLETE, EngineRuns.host(1, 4, 1),
                    new io.schedlab.engine.spec.SchedulerSpec("cfs", Map.of("pleHandler", handler)), null,
                    List.of(EngineRuns.vm("hb", 4, null, null, null, "hackbench",
                                    params("groups", 1, "fds", 6, "loops", 40, "lockUs", 5.0)),
                            EngineRuns.vm("hog", 4, null, null, null, "cpu-loop", Map.of("threads", 4, "workSeconds", 0))),
                    null, null);
            ResultDocument doc = EngineRuns.ENGINE.withSelfCheck().run(
                    EngineRuns.ENGINE.validate(spec, Limits.defaults()).normalized(), Limits.defaults(),
                    io.schedlab.engine.run.RunControl.NONE);
            VmResult hb = EngineRuns.vmResult(doc, "hb");
            assertThat(hb.workloadDetails().get("messages")).as(handler).isEqualTo(6.0 * 6 * 40);
            assertThat(doc.hypervisorStatistics().get("pleExits")).as(handler + ": writers spin on preempted holders")
                    .isPositive();
        }
    }

    @Test
    void outOfBoundsSizesNameTheField() {
        List<Violation> v = EngineRuns.ENGINE.validate(EngineRuns.spec(EngineRuns.host(1, 2, 1), "static",
                StopCondition.DURATION, 1, List.of(EngineRuns.vm("vm", 1, null, null, null, "hackbench",
                        Map.of("groups", 65, "fds", 0)))), Limits.defaults()).violations();
        assertThat(v).extracting(Violation::pointer).contains("/vms/0/workload/params/groups",
                "/vms/0/workload/params/fds");
    }
}
