package io.schedlab.engine.workloads;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** rt-app semantics on dedicated CPUs (FakeGuest: a thread runs as soon as it is ready, nothing preempts it). */
class RtAppWorkloadTest {

    private static Map<String, Double> run(String json, int cpus) {
        RtAppWorkload w = RtAppWorkload.parse(RtAppFiles.json(json));
        FakeGuest guest = new FakeGuest(cpus, 1);
        guest.run(w, 10_000_000_000L);
        return w.report(guest.now()).details();
    }

    @Test
    void unloadedTimerPeriodsAreExactAndCounted() {
        Map<String, Double> d = run("""
                {"tasks": {"t": {"loop": 20, "run": 1000, "timer": {"ref": "unique", "period": 10000}}}}""", 1);
        assertThat(d).containsEntry("t.activations", 20.0).containsEntry("t.periodMeanUs", 10_000.0)
                .containsEntry("t.periodMinUs", 10_000.0).containsEntry("t.periodMaxUs", 10_000.0)
                .containsEntry("t.latenessMaxUs", 0.0).containsEntry("t.missedTimers", 0.0)
                .containsEntry("t.phaseLoops", 20.0);
    }

    @Test
    void theFirstExpiryCountsFromTheThreadStartAfterItsDelay() {
        RtAppWorkload w = RtAppWorkload.parse(RtAppFiles.json("""
                {"tasks": {"t": {"delay": 3000, "loop": 5, "run": 1000,
                                 "timer": {"ref": "unique", "period": 10000}}}}"""));
        FakeGuest guest = new FakeGuest(1, 1);
        guest.run(w, 10_000_000_000L);
        WorkloadReport r = w.report(guest.now());
        // delay 3 ms, then five periods of 10 ms: the last expiry is at 53 ms, and the thread ends there
        assertThat(r.completionSeconds()).isEqualTo(0.053);
        assertThat(r.details()).containsEntry("t.periodMeanUs", 10_000.0);
    }

    private static final String LATE_THEN_ON_TIME = """
            {"tasks": {"t": {"loop": 1, "phases": {
                "late": {"run": 25000, "timer": {"ref": "unique", "period": 10000, "mode": "%s"}},
                "periodic": {"loop": 3, "run": 1000, "timer": {"ref": "unique", "period": 10000, "mode": "%s"}}}}}}""";

    @Test
    void anAbsoluteTimerKeepsItsGridAfterALateActivation() {
        // expiries at 10, 20, 30, 40 ms: reached at 25 and 26 ms (missed, no sleep), then woken at 30 and 40 ms
        Map<String, Double> d = run(LATE_THEN_ON_TIME.formatted("absolute", "absolute"), 1);
        assertThat(d).containsEntry("t.activations", 4.0).containsEntry("t.missedTimers", 2.0)
                .containsEntry("t.periodMinUs", 1_000.0).containsEntry("t.periodMaxUs", 10_000.0)
                .containsEntry("t.periodMeanUs", 5_000.0);
    }

    @Test
    void aRelativeTimerRestartsFromALateActivation() {
        // missed at 25 ms, the reference moves there: woken at 35, 45 and 55 ms
        Map<String, Double> d = run(LATE_THEN_ON_TIME.formatted("relative", "relative"), 1);
        assertThat(d).containsEntry("t.activations", 4.0).containsEntry("t.missedTimers", 1.0)
                .containsEntry("t.periodMinUs", 10_000.0).containsEntry("t.periodMaxUs", 10_000.0);
    }

    @Test
    void oneAbsoluteUseMakesTheTimerAbsoluteForEveryEvent() {
        // rt-app keeps one mode per timer resource: an absolute event anywhere clears its relative flag
        Map<String, Double> d = run(LATE_THEN_ON_TIME.formatted("relative", "absolute"), 1);
        assertThat(d).containsEntry("t.missedTimers", 2.0);
    }

    @Test
    void phaseAndTaskLoopsRunTheirCounts() {
        RtAppWorkload w = RtAppWorkload.parse(RtAppFiles.json("""
                {"tasks": {"t": {"loop": 3, "phases": {
                    "p0": {"loop": 4, "run": 100, "sleep": 100},
                    "p1": {"loop": 2, "run": 50}}}}}"""));
        FakeGuest guest = new FakeGuest(1, 1);
        guest.run(w, 10_000_000_000L);
        assertThat(w.isComplete()).isTrue();
        assertThat(guest.computeNanosExecuted).isEqualTo(3 * (4 * 100_000 + 2 * 50_000));
        assertThat(w.report(guest.now()).details()).containsEntry("t.phaseLoops", 18.0);
    }

    @Test
    void aTaskWithoutPhasesIsOnePhaseAndItsLoopCountsThatPhase() {
        RtAppWorkload w = RtAppWorkload.parse(RtAppFiles.json("""
                {"tasks": {"t": {"loop": 5, "run": 100, "sleep": 100}}}"""));
        FakeGuest guest = new FakeGuest(1, 1);
        guest.run(w, 10_000_000_000L);
        assertThat(guest.computeNanosExecuted).isEqualTo(5 * 100_000);
        assertThat(w.isComplete()).isTrue();
    }

    @Test
    void withoutALoopATaskRunsForever() {
        RtAppWorkload w = RtAppWorkload.parse(RtAppFiles.json("""
                {"tasks": {"t": {"run": 100, "sleep": 900}}}"""));
        FakeGuest guest = new FakeGuest(1, 1);
        guest.run(w, 1_000_000_000L);
        assertThat(w.isFinite()).isFalse();
        // a 1 ms cycle for 1 s: 1000 bursts, and the one starting at 1 s is counted when it starts
        assertThat(guest.computeNanosExecuted).isBetween(1000 * 100_000L, 1001 * 100_000L);
    }

    @Test
    void theGlobalDurationEndsEveryThread() {
        RtAppWorkload w = RtAppWorkload.parse(RtAppFiles.json("""
                {"global": {"duration": 1}, "tasks": {"t": {"run": 100, "sleep": 900}}}"""));
        FakeGuest guest = new FakeGuest(1, 1);
        guest.run(w, 5_000_000_000L);
        assertThat(w.isFinite()).isTrue();
        assertThat(w.isComplete()).isTrue();
        assertThat(w.report(guest.now()).completionSeconds()).isEqualTo(1.0);
    }

    @Test
    void instancesAreThreadsOfTheirOwnWithNumberedNames() {
        Map<String, Double> d = run("""
                {"tasks": {"t": {"instance": 3, "loop": 4, "run": 500,
                                 "timer": {"ref": "unique", "period": 2000}}}}""", 3);
        assertThat(d).containsEntry("threads", 3.0).containsEntry("activations", 12.0);
        for (int i = 0; i < 3; i++) {
            assertThat(d).containsEntry("t-" + i + ".activations", 4.0).containsEntry("t-" + i + ".periodMeanUs", 2000.0);
        }
    }

    @Test
    void aDocumentAsAStringRunsAsTheSameObject() {
        String text = RtAppFiles.text("timer-mutex-loops.json");
        RtAppDocument fromText = RtAppDocument.parse(text);
        RtAppDocument fromObject = RtAppDocument.parse(RtAppFiles.object("timer-mutex-loops.json"));
        assertThat(fromText).isEqualTo(fromObject);
        assertThat(fromText.threads()).isEqualTo(3);
    }
}
