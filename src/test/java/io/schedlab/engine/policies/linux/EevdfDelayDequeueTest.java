package io.schedlab.engine.policies.linux;

import static io.schedlab.engine.policies.linux.LinuxRuns.host;
import static io.schedlab.engine.policies.linux.LinuxRuns.run;
import static io.schedlab.engine.policies.linux.LinuxRuns.spec;
import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.model.Pcpu;
import io.schedlab.engine.model.Vcpu;
import io.schedlab.engine.model.Vm;
import io.schedlab.engine.output.ResultDocument;
import io.schedlab.engine.policies.Decision;
import io.schedlab.engine.spec.SchedulerSpec;
import io.schedlab.engine.spec.VmSpec;
import io.schedlab.engine.spec.WorkloadSpec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * EEVDF DELAY_DEQUEUE (6.12, commit 152e11f6df29) with DELAY_ZERO: a task that sleeps while not eligible stays
 * queued until it is picked (then dequeued, a positive lag dropped) or wakes (then requeued where it is).
 */
class EevdfDelayDequeueTest {
    private int uids;
    private final StubContext ctx = new StubContext();

    private EevdfPolicy policy(String kernelVersion, boolean delayDequeue) {
        EevdfPolicy p = new EevdfPolicy(new LinuxParams(EevdfOrderTest.defaults(Map.of("kernelVersion", kernelVersion,
                "preemptShort", false, "delayDequeue", delayDequeue)), true));
        p.factor = 1;
        p.ctx = ctx;
        p.rqs = new LinuxRq[] {new LinuxRq(0)};
        return p;
    }

    private LinuxTask task(LinuxRq rq, long vruntime, long deadline) {
        Vm vm = new Vm(uids, "vm" + uids, 256, 0, 1024, 0);
        Vcpu v = new Vcpu(vm, 0, uids++, 0);
        v.hardAffinity.set(0);
        LinuxTask t = new LinuxTask(v, 1024, rq);
        v.policyData = t;
        t.vruntime = vruntime;
        t.deadline = deadline;
        t.fresh = false;
        rq.add(t);
        return t;
    }

    /** rq runs {@code curr} (ahead of V: not eligible) beside {@code other}, which is behind. */
    private static void running(LinuxRq rq, LinuxTask curr) {
        rq.queued.remove(curr);
        rq.curr = curr;
    }

    @Test
    void anIneligibleSleeperStaysQueuedAndCounts() {
        EevdfPolicy p = policy("6.12", true);
        LinuxRq rq = p.rqs[0];
        LinuxTask curr = task(rq, 600_000, 1_350_000);
        LinuxTask other = task(rq, 0, 750_000);
        running(rq, curr);
        long vBefore = rq.avgVruntime();
        p.sleep(curr.v);
        assertThat(curr.delayed).isTrue();
        assertThat(curr.onRq).isTrue();
        assertThat(rq.nr).isEqualTo(2);
        assertThat(rq.avgVruntime()).as("still in V").isEqualTo(vBefore);
        assertThat(p.statistics()).containsEntry(EevdfPolicy.STAT_DELAYED_DEQUEUES, 1L);
        // the schedule that follows puts it back in the tree and picks the eligible other task
        Decision d = p.doSchedule(new Pcpu(0, 0, 0, 0, 0), curr.v, false);
        assertThat(d.next()).isSameAs(other.v);
        assertThat(rq.queued).contains(curr);
    }

    @Test
    void anEligibleSleeperLeavesAtOnce() {
        EevdfPolicy p = policy("6.12", true);
        LinuxRq rq = p.rqs[0];
        LinuxTask curr = task(rq, 0, 750_000);
        task(rq, 600_000, 1_350_000);
        running(rq, curr);
        p.sleep(curr.v);
        assertThat(curr.delayed).isFalse();
        assertThat(curr.onRq).isFalse();
        assertThat(rq.nr).isEqualTo(1);
    }

    @Test
    void aDelayedSleeperIsDequeuedWhenPickedAndLosesPositiveLag() {
        EevdfPolicy p = policy("6.12", true);
        LinuxRq rq = p.rqs[0];
        LinuxTask sleeper = task(rq, 600_000, 700_000);
        LinuxTask other = task(rq, 0, 2_000_000);
        running(rq, sleeper);
        p.sleep(sleeper.v);
        Pcpu cpu = new Pcpu(0, 0, 0, 0, 0);
        p.doSchedule(cpu, sleeper.v, false);
        // the other runs until it is past the sleeper: the sleeper is eligible with the earlier deadline
        ctx.now = 1_000_000;
        Decision d = p.doSchedule(cpu, other.v, false);
        assertThat(d.next()).as("the delayed sleeper is dequeued, not run").isSameAs(other.v);
        assertThat(sleeper.onRq).isFalse();
        assertThat(sleeper.delayed).isFalse();
        assertThat(rq.nr).isEqualTo(1);
        assertThat(sleeper.vlag).as("DELAY_ZERO").isZero();
    }

    @Test
    void aDelayedSleeperWakesWhereItIsKeepingItsPlace() {
        EevdfPolicy p = policy("6.12", true);
        LinuxRq rq = p.rqs[0];
        LinuxTask sleeper = task(rq, 600_000, 1_350_000);
        task(rq, 0, 750_000);
        running(rq, sleeper);
        p.sleep(sleeper.v);
        p.doSchedule(new Pcpu(0, 0, 0, 0, 0), sleeper.v, false);
        assertThat(p.pickCpu(sleeper.v)).isZero();
        p.wake(sleeper.v);
        assertThat(sleeper.delayed).isFalse();
        assertThat(sleeper.vruntime).as("negative lag kept: not placed again").isEqualTo(600_000);
        assertThat(sleeper.deadline).isEqualTo(1_350_000);
        assertThat(rq.nr).isEqualTo(2);
    }

    @Test
    void release66AndTheSwitchOffDequeueAtOnce() {
        for (EevdfPolicy p : List.of(policy("6.6", true), policy("6.12", false))) {
            LinuxRq rq = p.rqs[0];
            LinuxTask curr = task(rq, 600_000, 1_350_000);
            task(rq, 0, 750_000);
            running(rq, curr);
            p.sleep(curr.v);
            assertThat(curr.delayed).isFalse();
            assertThat(rq.nr).isEqualTo(1);
        }
    }

    /** One CPU: two tasks of 3 ms work and 1 ms sleep; each sleeps after running past the other, so not eligible. */
    private static ResultDocument twoSleepers(String kernelVersion) {
        String json = "{\"tasks\":{\"t\":{\"instance\":2,\"loop\":-1,\"run\":3000,\"sleep\":1000}}}";
        VmSpec vm = new VmSpec("pair", 2, null, null, null, null, null, null, null, null, null,
                new WorkloadSpec("rt-app", Map.of("json", json)), null, null);
        return run(spec(host(1, 1, 1), new SchedulerSpec("eevdf", Map.of("kernelVersion", kernelVersion)), 1,
                List.of(vm)));
    }

    @Test
    void aRunCountsDelayedDequeuesFrom612Only() {
        assertThat(twoSleepers("6.12").policyStatistics().get(EevdfPolicy.STAT_DELAYED_DEQUEUES)).isPositive();
        assertThat(twoSleepers("6.6").policyStatistics().get(EevdfPolicy.STAT_DELAYED_DEQUEUES)).isZero();
    }
}
