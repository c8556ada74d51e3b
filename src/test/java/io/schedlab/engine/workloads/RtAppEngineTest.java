package io.schedlab.engine.workloads;

import static io.schedlab.engine.workloads.EngineRuns.host;
import static io.schedlab.engine.workloads.EngineRuns.run;
import static io.schedlab.engine.workloads.EngineRuns.spec;
import static io.schedlab.engine.workloads.EngineRuns.vm;
import static io.schedlab.engine.workloads.EngineRuns.vmResult;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.schedlab.engine.output.ResultDocument;
import io.schedlab.engine.output.VmResult;
import io.schedlab.engine.spec.ExperimentSpec.StopCondition;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** rt-app documents through the real engine: guest mutexes, runtime against run, and periods in the result. */
class RtAppEngineTest {

    private static VmResult runOn(int pcpus, int vcpus, Object json) {
        ResultDocument doc = run(spec(host(1, pcpus, 1), "credit", StopCondition.ALL_COMPLETE, 10,
                List.of(vm("guest", vcpus, null, null, null, "rt-app", Map.of("json", json)))));
        return vmResult(doc, "guest");
    }

    @Test
    void theExampleFileRunsToCompletionWithItsPeriodsInTheResult() {
        VmResult guest = runOn(4, 4, RtAppFiles.object("timer-mutex-loops.json"));
        Map<String, Double> d = guest.workloadDetails();
        assertThat(guest.headline().unit()).isEqualTo("us");
        assertThat(guest.completionNanos()).isNotNull();
        // periodic: 40 loops of light x2 + heavy, one activation each: 120 on a 10 ms absolute grid
        assertThat(d).containsEntry("periodic.activations", 120.0).containsEntry("periodic.missedTimers", 0.0)
                .containsEntry("periodic.phaseLoops", 120.0);
        assertThat(d.get("periodic.periodMeanUs")).isCloseTo(10_000.0, within(1.0));
        assertThat(d.get("periodic.periodMinUs")).isCloseTo(10_000.0, within(50.0));
        assertThat(d.get("periodic.periodMaxUs")).isCloseTo(10_000.0, within(50.0));
        // workers: 6 loops of burst x5 + rest, no timer
        assertThat(d).containsEntry("worker-0.phaseLoops", 36.0).containsEntry("worker-1.phaseLoops", 36.0)
                .containsEntry("worker-0.activations", 0.0).containsEntry("threads", 3.0);
        // 120 activations 10 ms apart from the start: the run ends with the last one, at 1.2 s
        assertThat(guest.completionNanos() - guest.startNanos()).isCloseTo(1_200_000_000L, within(100_000L));
    }

    @Test
    void mutexWaitersBlockOffTheirVcpuAndAreServedInArrivalOrder() {
        // holder takes m at 0 and keeps it 20 ms; a asks at 1 ms, b at 2 ms; each then holds it 5 ms. After its
        // unlock each thread reaches a timer whose expiry (1 us after its start) has passed, so that activation
        // marks the unlock time; the next expiry of the same (absolute) timer, 50 ms after the thread's start, marks
        // a known instant
        VmResult guest = runOn(3, 3, RtAppFiles.json("""
                {"tasks": {
                  "holder": {"loop": 1, "lock": "m", "run": 20000, "unlock": "m"},
                  "a": {"loop": 1, "delay": 1000, "phases": {
                        "critical": {"lock": "m", "run": 5000, "unlock": "m",
                                     "timer": {"ref": "unique", "period": 1, "mode": "absolute"}},
                        "after": {"timer": {"ref": "unique", "period": 49999}}}},
                  "b": {"loop": 1, "delay": 2000, "phases": {
                        "critical": {"lock": "m", "run": 5000, "unlock": "m",
                                     "timer": {"ref": "unique", "period": 1, "mode": "absolute"}},
                        "after": {"timer": {"ref": "unique", "period": 49999}}}}}}"""));
        // waiting costs no CPU (blocked, not spinning): the VM used about the 30 ms of work
        assertThat(guest.cpuNanosAllVcpus()).isCloseTo(30_000_000L, within(1_000_000L));
        assertThat(guest.spinNanosAllVcpus()).isZero();
        Map<String, Double> d = guest.workloadDetails();
        assertThat(d).containsEntry("a.missedTimers", 1.0).containsEntry("b.missedTimers", 1.0);
        // FIFO hand-off: a holds m from 20 to 25 ms (then 51 - 25 = 26 ms to its next expiry), b from 25 to 30 ms
        // (52 - 30 = 22 ms); served the other way round these would be 21 and 27 ms
        assertThat(d.get("a.periodMeanUs")).isCloseTo(26_000.0, within(200.0));
        assertThat(d.get("b.periodMeanUs")).isCloseTo(22_000.0, within(200.0));
    }

    @Test
    void aContendedMutexOnAnOvercommittedVcpuLosesNoWorkAndRepeatsBitForBit() {
        // 3 threads on 1 vCPU, each 50 times: 200 us outside, 100 us inside the mutex; the guest time-shares them
        String doc = """
                {"tasks": {"t": {"instance": 3, "loop": 50, "run": 200, "lock": "m", "run1": 100, "unlock": "m"}}}""";
        ResultDocument first = run(spec(host(1, 1, 1), "credit", StopCondition.ALL_COMPLETE, 10,
                List.of(vm("guest", 1, null, null, null, "rt-app", Map.of("json", RtAppFiles.json(doc))))));
        VmResult guest = vmResult(first, "guest");
        assertThat(guest.completionNanos()).isNotNull();
        assertThat(guest.workloadDetails()).containsEntry("t-0.phaseLoops", 50.0).containsEntry("t-2.phaseLoops", 50.0);
        // 3 x 50 x 300 us of work on one vCPU: done in about that time, nothing spun
        assertThat(guest.completionNanos() - guest.startNanos()).isCloseTo(45_000_000L, within(1_000_000L));
        assertThat(guest.spinNanosAllVcpus()).isZero();
        ResultDocument again = run(spec(host(1, 1, 1), "credit", StopCondition.ALL_COMPLETE, 10,
                List.of(vm("guest", 1, null, null, null, "rt-app", Map.of("json", RtAppFiles.json(doc))))));
        // everything but the wall-clock time it took
        assertThat(again.vms()).isEqualTo(first.vms());
        assertThat(again.totals()).isEqualTo(first.totals());
        assertThat(again.distributions()).isEqualTo(first.distributions());
    }

    @Test
    void runtimeIsWallClockTimeButRunIsWork() {
        // two threads share one vCPU: 20 ms of run each take 40 ms together; 20 ms of runtime end 20 ms after the
        // event began, and the second thread's began when it first ran, after the first's 4 ms guest slice
        String doc = """
                {"tasks": {"t": {"instance": 2, "loop": 1, "%s": 20000}}}""";
        VmResult work = runOn(1, 1, RtAppFiles.json(doc.formatted("run")));
        VmResult wall = runOn(1, 1, RtAppFiles.json(doc.formatted("runtime")));
        assertThat(work.completionNanos() - work.startNanos()).isCloseTo(40_000_000L, within(1_000_000L));
        assertThat(wall.completionNanos() - wall.startNanos()).isCloseTo(24_000_000L, within(500_000L));
    }
}
