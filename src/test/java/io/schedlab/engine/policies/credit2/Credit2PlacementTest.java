package io.schedlab.engine.policies.credit2;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.model.Vcpu;
import io.schedlab.engine.model.Vm;
import io.schedlab.engine.policies.credit.PolicyTestHost;
import io.schedlab.engine.policies.credit.PolicyTestHost.Behaviour;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Where credit2 places a vCPU, per release: csched2_vcpu_insert keeps the creation-time processor up to 4.7 and
 * picks from 4.8; a wake-up never picks (vcpu_wake calls only the policy's wake); 4.6's choose_cpu cycles from
 * the vCPU's processor within the chosen run queue.
 */
class Credit2PlacementTest {
    private static final long MS = 1_000_000L;

    /** Three loops on pCPUs 0-2 of a 1 x 4 host with one run queue per core; pCPU 3's queue stays idle. */
    private static PolicyTestHost threeBusyQueues(Credit2Policy pol) {
        PolicyTestHost host = new PolicyTestHost(1, 4, 1).start(pol);
        host.addVm("busy", 256, 0, Behaviour.loop(), 0, 1, 2);
        host.runUntil(100 * MS);
        return host;
    }

    private static Credit2Policy perCore(String version) {
        return new Credit2Policy(Credit2Params.defaults(version).withRunqueue("core"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"4.6", "4.7", "4.8", "4.10"})
    void insertKeepsTheCreationProcessorUpTo47AndPicksTheLeastLoadedQueueFrom48(String version) {
        Credit2Policy pol = perCore(version);
        PolicyTestHost host = threeBusyQueues(pol);
        double min = Double.MAX_VALUE;
        for (int q = 0; q < 4; q++) {
            min = Math.min(min, pol.runqueueLoad(q));
        }
        assertThat(pol.runqueueLoad(0)).as("precondition: pCPU 0's queue is not the least loaded").isGreaterThan(min);
        Vm late = host.addVm("late", 256, 0, false, Behaviour.loop(), 0);
        Vcpu v = late.vcpus.get(0);
        host.wake(v);
        boolean picks = !"4.6".equals(version) && !"4.7".equals(version);
        int rq = Credit2Policy.runqueueOfVcpu(v);
        if (picks) {
            assertThat(pol.runqueueLoad(rq)).as(version + ": queue " + rq).isEqualTo(min);
        } else {
            assertThat(rq).as(version).isZero();
        }
    }

    @Test
    void aWakeUpStaysOnItsRunQueueBesideAnIdleOne() {
        Credit2Policy pol = perCore("4.6");
        PolicyTestHost host = threeBusyQueues(pol);
        Vm late = host.addVm("late", 256, 0, false, Behaviour.loop(), 0);
        Vcpu v = late.vcpus.get(0);
        host.wake(v);
        host.runUntil(110 * MS);
        for (int i = 0; i < 5; i++) {
            host.block(v);
            host.runUntil(host.now() + 5 * MS);
            host.wake(v);
            // queue 3 is idle and least loaded, yet only balance_load moves a vCPU between queues
            assertThat(v.processor).as("wake %d", i).isZero();
            assertThat(Credit2Policy.runqueueOfVcpu(v)).isZero();
            host.runUntil(host.now() + 2 * MS);
        }
    }

    @Test
    void xen46ChooseCpuCyclesFromTheProcessorWhileLaterReleasesTakeTheFirst() {
        for (String version : new String[] {"4.6", "4.8"}) {
            Credit2Policy pol = new Credit2Policy(Credit2Params.defaults(version).withRunqueue("socket"));
            PolicyTestHost host = new PolicyTestHost(1, 4, 1).start(pol);
            Vm vm = host.addVm("guest", 256, 0, false, Behaviour.loop(), 1);
            Vcpu v = vm.vcpus.get(0);
            host.wake(v);
            host.runUntil(10 * MS);
            host.block(v);
            // xl vcpu-pin to pCPUs 0 and 3: pCPU 1 is no longer allowed, so vcpu_migrate picks
            v.hardAffinity.clear();
            v.hardAffinity.set(0);
            v.hardAffinity.set(3);
            pol.affinityChanged(v);
            assertThat(pol.pickCpu(v)).as(version).isEqualTo("4.6".equals(version) ? 3 : 0);
        }
    }
}
