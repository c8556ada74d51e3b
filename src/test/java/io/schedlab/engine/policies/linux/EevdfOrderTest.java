package io.schedlab.engine.policies.linux;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.model.Vcpu;
import io.schedlab.engine.model.Vm;
import io.schedlab.engine.params.ParameterSpec;
import io.schedlab.engine.params.Params;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** EEVDF's pick on small fixed run queues: eligibility by lag, earliest deadline, RUN_TO_PARITY, lag clamp. */
class EevdfOrderTest {
    private EevdfPolicy policy;
    private LinuxRq rq;
    private int uids;

    static Params defaults(Map<String, Object> overrides) {
        Map<String, Object> m = new TreeMap<>();
        for (ParameterSpec s : EevdfPolicy.descriptor().parameters()) {
            m.put(s.name(), s.defaultValue());
        }
        m.putAll(overrides);
        return new Params(m);
    }

    @BeforeEach
    void setUp() {
        policy = new EevdfPolicy(new LinuxParams(defaults(Map.of()), true));
        policy.factor = 1;
        rq = new LinuxRq(0);
    }

    private LinuxTask queued(int weight, long vruntime, long deadline) {
        Vm vm = new Vm(uids, "vm" + uids, 256, 0, 1024, 0);
        LinuxTask t = new LinuxTask(new Vcpu(vm, 0, uids++, 0), weight, rq);
        t.vruntime = vruntime;
        t.deadline = deadline;
        rq.add(t);
        return t;
    }

    @Test
    void theEligibleTaskWithTheEarliestDeadlineRuns() {
        LinuxTask a = queued(1024, 0, 10_000);
        LinuxTask b = queued(1024, 2_000, 5_000);
        LinuxTask c = queued(1024, 30_000, 1_000); // earliest deadline, but ahead of V = 10_666: not eligible
        assertThat(rq.avgVruntime()).isEqualTo(10_666);
        assertThat(policy.pick(rq)).isSameAs(b);
        rq.remove(b);
        assertThat(policy.pick(rq)).as("V = 15 000: c is still ahead").isSameAs(a);
        rq.remove(a);
        assertThat(policy.pick(rq)).as("alone, c is at V").isSameAs(c);
    }

    @Test
    void eligibilityWeighsVruntimesByLoad() {
        LinuxTask heavy = queued(3072, 10_000, 11_000);
        LinuxTask light = queued(1024, 0, 20_000);
        // V = (3 x 10 000 + 0) / 4 = 7 500: the heavy task is ahead of it, so the light one runs despite its deadline
        assertThat(policy.pick(rq)).isSameAs(light);
        assertThat(heavy.vruntime).isGreaterThan(rq.avgVruntime());
    }

    @Test
    void runToParityKeepsTheCurrentTaskUntilItsDeadlineMoves() {
        LinuxTask curr = queued(1024, 1_000, 9_000);
        LinuxTask other = queued(1024, 1_000, 3_000);
        rq.queued.remove(curr);
        rq.curr = curr;
        policy.picked(curr);
        assertThat(policy.pick(rq)).as("at parity, eligible").isSameAs(curr);
        curr.vruntime = 9_000;
        assertThat(policy.afterAdvance(rq, curr)).as("update_deadline reschedules").isTrue(); // a new slice, parity lost
        assertThat(curr.deadline).isEqualTo(9_000 + policy.slice());
        assertThat(policy.pick(rq)).isSameAs(other);

        EevdfPolicy noParity = new EevdfPolicy(new LinuxParams(defaults(Map.of("runToParity", false)), true));
        curr.vruntime = 1_000;
        curr.deadline = 9_000;
        noParity.picked(curr);
        assertThat(noParity.pick(rq)).as("without RUN_TO_PARITY the earlier deadline wins at once").isSameAs(other);
    }

    @Test
    void lagIsClampedToTwoSlicesOrATick() {
        LinuxTask far = queued(1024, 0, 1_000);
        queued(1024, 100_000_000, 100_001_000);
        policy.beforeDequeue(rq, far);
        long limit = Math.max(2 * policy.slice(), policy.params.tickNanos);
        assertThat(far.vlag).isEqualTo(limit);
    }

    @Test
    void aWakingTaskIsPlacedWithItsLagAndAHalfSliceForNewOnes() {
        queued(1024, 10_000, 800_000);
        LinuxTask sleeper = new LinuxTask(new Vcpu(new Vm(99, "s", 256, 0, 1024, 0), 0, 99, 0), 1024, rq);
        sleeper.vlag = 4_000;
        policy.place(rq, sleeper, false);
        // lag x (load + w) / load = 4 000 x 2048 / 1024 behind V = 10 000
        assertThat(sleeper.vruntime).isEqualTo(2_000);
        assertThat(sleeper.deadline).isEqualTo(2_000 + policy.slice());
        LinuxTask fresh = new LinuxTask(new Vcpu(new Vm(98, "f", 256, 0, 1024, 0), 0, 98, 0), 1024, rq);
        policy.place(rq, fresh, true);
        assertThat(fresh.vruntime).isEqualTo(10_000);
        assertThat(fresh.deadline).isEqualTo(10_000 + policy.slice() / 2);
    }
}
