package io.schedlab.engine.policies.linux;

import static io.schedlab.engine.policies.linux.LinuxRuns.endlessLoop;
import static io.schedlab.engine.policies.linux.LinuxRuns.host;
import static io.schedlab.engine.policies.linux.LinuxRuns.run;
import static io.schedlab.engine.policies.linux.LinuxRuns.spec;
import static io.schedlab.engine.policies.linux.LinuxRuns.vm;
import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.Engine;
import io.schedlab.engine.model.Vcpu;
import io.schedlab.engine.model.Vm;
import io.schedlab.engine.output.ResultDocument;
import io.schedlab.engine.spec.Limits;
import io.schedlab.engine.spec.SchedulerSpec;
import io.schedlab.engine.spec.Violation;
import io.schedlab.engine.spec.VmSpec;
import io.schedlab.engine.spec.WorkloadSpec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * EEVDF from 6.12: per-task slices (sched_attr.sched_runtime as the VM's sliceUs) and PREEMPT_SHORT (commit
 * 85e511df3cec): a waking task with a shorter slice breaks the running task's RUN_TO_PARITY protection.
 */
class EevdfPreemptShortTest {
    private int uids;

    private static EevdfPolicy policy(String kernelVersion, boolean preemptShort) {
        EevdfPolicy p = new EevdfPolicy(new LinuxParams(EevdfOrderTest.defaults(Map.of("kernelVersion", kernelVersion,
                "preemptShort", preemptShort)), true));
        p.factor = 1;
        return p;
    }

    private LinuxTask task(LinuxRq rq, long vruntime, long deadline, long sliceNanos) {
        Vm vm = new Vm(uids, "vm" + uids, 256, 0, 1024, 0);
        LinuxTask t = new LinuxTask(new Vcpu(vm, 0, uids++, 0), 1024, rq);
        t.vruntime = vruntime;
        t.deadline = deadline;
        t.customSliceNanos = sliceNanos;
        rq.add(t);
        return t;
    }

    @Test
    void aShorterEligibleWakerWithTheEarlierDeadlineQualifies() {
        EevdfPolicy p = policy("6.12", true);
        LinuxRq rq = new LinuxRq(0);
        LinuxTask curr = task(rq, 1_000, 700_000, 0);
        LinuxTask shortWaker = task(rq, 0, 500_000, 500_000);
        assertThat(p.slice(shortWaker)).isEqualTo(500_000);
        assertThat(p.slice(curr)).isEqualTo(p.slice());
        assertThat(p.doPreemptShort(rq, shortWaker, curr)).isTrue();
        // an equal slice never qualifies, however early its deadline
        LinuxTask sameSlice = task(rq, 0, 100_000, 0);
        assertThat(p.doPreemptShort(rq, sameSlice, curr)).isFalse();
        // a shorter waker ahead of V is not eligible
        LinuxTask ahead = task(rq, 5_000_000, 5_400_000, 400_000);
        assertThat(p.doPreemptShort(rq, ahead, curr)).isFalse();
    }

    @Test
    void aLaterDeadlineQualifiesOnlyWhenTheRunningTaskIsNoLongerEligible() {
        EevdfPolicy p = policy("6.12", true);
        LinuxRq rq = new LinuxRq(0);
        LinuxTask curr = task(rq, 0, 10_000, 0);
        LinuxTask waker = task(rq, 0, 400_000, 300_000);
        assertThat(p.doPreemptShort(rq, waker, curr)).as("curr eligible, earlier deadline").isFalse();
        curr.vruntime = 50_000; // now ahead of V
        waker.vruntime = -50_000;
        assertThat(p.doPreemptShort(rq, waker, curr)).isTrue();
    }

    @Test
    void sliceRequestsApplyFrom612Only() {
        LinuxRq rq = new LinuxRq(0);
        LinuxTask t = task(rq, 0, 0, 500_000);
        assertThat(policy("6.12", true).slice(t)).isEqualTo(500_000);
        EevdfPolicy old = policy("6.6", true);
        assertThat(old.slice(t)).isEqualTo(old.slice()).isEqualTo(750_000);
        assertThat(old.params.preemptShort).isFalse();
    }

    @Test
    void aTaskWithoutItsProtectionRunsOnlyUntilItIsNoLongerEligible() {
        EevdfPolicy p = policy("6.12", true);
        LinuxRq rq = new LinuxRq(0);
        LinuxTask curr = task(rq, 0, 750_000, 0);
        task(rq, 100_000, 850_000, 0);
        rq.queued.remove(curr);
        rq.curr = curr;
        p.picked(curr);
        assertThat(p.runNanos(rq, curr)).as("at parity: to its deadline").isEqualTo(750_000);
        curr.atParity = false;
        // it passes V once its vruntime passes the queued task's 100 000
        assertThat(p.runNanos(rq, curr)).isBetween(100_001L, 100_003L);
        assertThat(policy("6.12", false).runNanos(rq, curr)).as("NO_PREEMPT_SHORT").isEqualTo(750_000);
    }

    /** One CPU: an endless loop at the base slice beside a 1 kHz timer task that asks for 500 us and runs 200 us. */
    private static ResultDocument tickerBesideHog(String kernelVersion, boolean preemptShort) {
        String json = "{\"tasks\":{\"t\":{\"loop\":-1,\"run\":200,\"timer\":{\"ref\":\"unique\",\"period\":1000,"
                + "\"mode\":\"absolute\"}}}}";
        VmSpec ticker = new VmSpec("ticker", 1, null, null, null, null, null, null, null, null, null,
                new WorkloadSpec("rt-app", Map.of("json", json)), Map.of("sliceUs", 500), null);
        // without DELAY_DEQUEUE: the ticker, past V when it sleeps, would otherwise wake with DELAY_ZERO's zero lag
        // always after the hog's slice has ended, and this test isolates the PREEMPT_SHORT rule
        return run(spec(host(1, 1, 1), new SchedulerSpec("eevdf", Map.of("kernelVersion", kernelVersion,
                "preemptShort", preemptShort, "delayDequeue", false)), 2,
                List.of(vm("hog", 1, null, endlessLoop(1)), ticker)));
    }

    /**
     * In this set-up the hog's 750 us slice has ended by each 1 ms wake-up, so update_curr on the wake-up's path
     * (update_deadline) reschedules it with or without the rule; the rule still fires on the wake-ups that find it
     * protected. Its effect on the waker is asserted on the policy in LinuxTickTest.
     */
    @Test
    void theRuleFiresOnlyWhenEnabled() {
        ResultDocument off = tickerBesideHog("6.12", false);
        ResultDocument on = tickerBesideHog("6.12", true);
        assertThat(on.policyStatistics().get(EevdfPolicy.STAT_SHORT_PREEMPTIONS)).isPositive();
        assertThat(off.policyStatistics().get(EevdfPolicy.STAT_SHORT_PREEMPTIONS)).isZero();
    }

    @Test
    void release66HasNoSuchRule() {
        ResultDocument on = tickerBesideHog("6.6", true);
        ResultDocument off = tickerBesideHog("6.6", false);
        assertThat(on.policyStatistics().get(EevdfPolicy.STAT_SHORT_PREEMPTIONS)).isZero();
        assertThat(LinuxRuns.vm(on, "ticker").wakeLatency()).isEqualTo(LinuxRuns.vm(off, "ticker").wakeLatency());
    }

    @Test
    void sliceRequestsOutsideTheKernelsRangeAreViolations() {
        for (int bad : new int[] {50, 100_001}) {
            VmSpec v = new VmSpec("g", 1, null, null, null, null, null, null, null, null, null, endlessLoop(1),
                    Map.of("sliceUs", bad), null);
            List<Violation> out = Engine.standard().validate(spec(host(1, 1, 1), new SchedulerSpec("eevdf", null), 1,
                    List.of(v)), Limits.defaults()).violations();
            assertThat(out).as("sliceUs " + bad).singleElement()
                    .satisfies(x -> assertThat(x.pointer()).isEqualTo("/vms/0/schedParams/sliceUs"));
        }
        VmSpec ok = new VmSpec("g", 1, null, null, null, null, null, null, null, null, null, endlessLoop(1),
                Map.of("sliceUs", 100), null);
        assertThat(Engine.standard().validate(spec(host(1, 1, 1), new SchedulerSpec("eevdf", null), 1, List.of(ok)),
                Limits.defaults()).violations()).isEmpty();
    }
}
