package io.schedlab.engine.policies.credit2;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.model.Vcpu;
import io.schedlab.engine.model.Vm;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The run queue's ring and credit copies against credit2.c's list semantics (runq_insert: after
 * every waiting vCPU with at least the new one's credit; removal keeps the others' order), also
 * when credits change while queued so the queue is no longer in credit order.
 */
class Credit2RunqueueTest {

    @Test
    void ringQueueKeepsTheListOrderOfCredit2() {
        SplittableRandom random = new SplittableRandom(5);
        Vm vm = new Vm(0, "vm", 256, 0, 1, 0);
        Credit2Domain dom = new Credit2Domain(vm);
        List<Credit2Vcpu> all = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            all.add(new Credit2Vcpu(new Vcpu(vm, i, i, 0), dom));
        }
        for (int round = 0; round < 300; round++) {
            Credit2Runqueue rq = new Credit2Runqueue(0, 4);
            List<Credit2Vcpu> expected = new ArrayList<>();
            for (Credit2Vcpu svc : all) {
                svc.onRunq = false;
            }
            for (int op = 0; op < 200; op++) {
                Credit2Vcpu svc = all.get(random.nextInt(all.size()));
                int what = random.nextInt(10);
                if (!svc.onRunq && what < 6) {
                    svc.credit = random.nextInt(5) * 1000L; // many equal credits
                    rq.insert(svc);
                    int at = 0;
                    while (at < expected.size() && expected.get(at).credit >= svc.credit) {
                        at++;
                    }
                    expected.add(at, svc);
                } else if (svc.onRunq && what < 8) {
                    rq.remove(svc);
                    expected.remove(svc);
                } else if (svc.onRunq) {
                    svc.credit -= random.nextInt(3000); // burnt while queued: the order is not re-sorted
                    rq.creditChanged(svc);
                }
                assertThat(rq.queued()).isEqualTo(expected.size());
                for (int i = 0; i < expected.size(); i++) {
                    assertThat(rq.queuedAt(i)).as("round %d op %d slot %d", round, op, i).isSameAs(expected.get(i));
                }
            }
        }
    }
}
