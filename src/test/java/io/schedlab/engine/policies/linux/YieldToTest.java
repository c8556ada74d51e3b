package io.schedlab.engine.policies.linux;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.model.Vcpu;
import io.schedlab.engine.model.Vm;
import io.schedlab.engine.policies.YieldToResult;
import io.schedlab.engine.params.ParameterSpec;
import io.schedlab.engine.params.Params;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** yield_to on the fair class: -ESRCH when both queues hold one task, 0 for a running target, else a boost. */
class YieldToTest {
    private CfsPolicy cfs;
    private int uids;

    private final StubContext ctx = new StubContext();

    @BeforeEach
    void setUp() {
        TreeMap<String, Object> m = new TreeMap<>();
        for (ParameterSpec s : CfsPolicy.descriptor().parameters()) {
            m.put(s.name(), s.defaultValue());
        }
        cfs = new CfsPolicy(new LinuxParams(new Params(m), false));
        cfs.ctx = ctx;
        cfs.factor = 1;
        cfs.rqs = new LinuxRq[] {new LinuxRq(0), new LinuxRq(1)};
    }

    private LinuxTask running(int cpu) {
        LinuxTask t = queued(cpu);
        LinuxRq rq = cfs.rqs[cpu];
        rq.queued.remove(t);
        rq.curr = t;
        return t;
    }

    private LinuxTask queued(int cpu) {
        Vm vm = new Vm(uids, "vm" + uids, 256, 0, 1024, 0);
        Vcpu v = new Vcpu(vm, 0, uids++, cpu);
        LinuxTask t = new LinuxTask(v, 1024, cfs.rqs[cpu]);
        v.policyData = t;
        cfs.rqs[cpu].add(t);
        return t;
    }

    @Test
    void bothQueuesHoldingOneTaskIsEsrch() {
        LinuxTask me = running(0);
        LinuxTask other = running(1);
        assertThat(cfs.yieldTo(me.v, other.v)).isEqualTo(YieldToResult.ESRCH);
        assertThat(ctx.tickled).isEmpty();
    }

    @Test
    void aRunningTargetFails() {
        LinuxTask me = running(0);
        queued(0);
        LinuxTask target = running(1);
        assertThat(cfs.yieldTo(me.v, target.v)).isEqualTo(YieldToResult.FAILED);
        assertThat(cfs.rqs[1].next).isNull();
    }

    @Test
    void aPreemptedTargetIsBoostedAndTheCallerSkipped() {
        LinuxTask me = running(0);
        running(1);
        LinuxTask target = queued(1);
        assertThat(cfs.yieldTo(me.v, target.v)).isEqualTo(YieldToResult.YIELDED);
        assertThat(cfs.rqs[1].next).isSameAs(target);
        assertThat(ctx.tickled).containsExactly(1); // resched_curr(p_rq)
        assertThat(cfs.rqs[0].skip).as("alone on its queue, the caller is not skipped").isNull();
        LinuxTask waiter = queued(0);
        assertThat(cfs.yieldTo(me.v, target.v)).isEqualTo(YieldToResult.YIELDED);
        assertThat(cfs.rqs[0].skip).isSameAs(me);
        assertThat(cfs.pick(cfs.rqs[0])).as("the skip buddy lets the waiter run").isSameAs(waiter);
    }
}
