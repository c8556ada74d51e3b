package io.schedlab.engine.policies.rt;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.model.Pcpu;
import io.schedlab.engine.model.Vcpu;
import io.schedlab.engine.model.Vm;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** {@link TickleTargets#target} chooses the pCPU, and counts the pCPUs looked at, as rt.c's walk does. */
class TickleTargetsDifferentialTest {

    @Test
    void targetAgreesWithTheWalkOnRandomHostsLoadsAndTickles() {
        SplittableRandom r = new SplittableRandom(20261202);
        int idleChosen = 0;
        int runningChosen = 0;
        int none = 0;
        for (int round = 0; round < 400; round++) {
            int n = 1 + r.nextInt(r.nextBoolean() ? 8 : 200);
            Pcpu[] cpus = new Pcpu[n];
            for (int c = 0; c < n; c++) {
                cpus[c] = new Pcpu(c, 0, c, 0, 0);
            }
            TickleTargets targets = new TickleTargets(cpus);
            Vm vm = new Vm(0, "vm", 256, 0, 1, 0);
            // few levels and deadlines, so that equal priorities (the walk's ties) are common
            for (int step = 0; step < 60; step++) {
                int c = r.nextInt(n);
                RtdsVcpu svc = r.nextInt(4) == 0 ? null : vcpu(vm, step, r, n);
                if (svc != null) {
                    svc.vcpu.processor = c; // a running vCPU's processor is its pCPU
                }
                cpus[c].current = svc == null ? null : svc.vcpu;
                targets.setRunning(c, svc);
                if (r.nextInt(3) == 0) {
                    targets.setTickled(r.nextInt(n), r.nextBoolean());
                }
                if (svc != null && r.nextInt(5) == 0) { // rt_update_deadline of a running vCPU
                    svc.curDeadline += 10;
                    targets.priorityChanged(svc);
                }
                RtdsVcpu snew = vcpu(vm, 1000 + step, r, n);
                int fast = targets.target(snew);
                long fastWalked = targets.walked();
                int walk = targets.walk(snew, cpus);
                assertThat(fast).as("round %d step %d", round, step).isEqualTo(walk);
                assertThat(fastWalked).as("round %d step %d", round, step).isEqualTo(targets.walked());
                if (walk < 0) {
                    none++;
                } else if (cpus[walk].current == null) {
                    idleChosen++;
                } else {
                    runningChosen++;
                }
            }
        }
        assertThat(idleChosen).as("the comparison covers idle pCPUs").isGreaterThan(1000);
        assertThat(runningChosen).as("and preempting a lower-priority vCPU").isGreaterThan(1000);
        assertThat(none).as("and no pCPU at all").isGreaterThan(1000);
    }

    @Test
    void allowsAllFollowsTheHardAffinityWhenRefreshed() {
        int n = 130; // three words: the last one partly used
        Pcpu[] cpus = new Pcpu[n];
        for (int c = 0; c < n; c++) {
            cpus[c] = new Pcpu(c, 0, c, 0, 0);
        }
        TickleTargets targets = new TickleTargets(cpus);
        Vm vm = new Vm(0, "vm", 256, 0, 1, 0);
        Vcpu v = new Vcpu(vm, 0, 0, 0);
        v.hardAffinity.set(0, n);
        RtdsVcpu svc = new RtdsVcpu(v);
        targets.refreshAllowsAll(svc);
        assertThat(targets.allowsAll(svc)).isTrue();
        SplittableRandom r = new SplittableRandom(6);
        for (int step = 0; step < 200; step++) {
            v.hardAffinity.set(0, n);
            if (r.nextBoolean()) {
                v.hardAffinity.clear(r.nextInt(n));
            }
            targets.refreshAllowsAll(svc);
            assertThat(targets.allowsAll(svc)).isEqualTo(v.hardAffinity.cardinality() == n);
        }
    }

    private static RtdsVcpu vcpu(Vm vm, int uid, SplittableRandom r, int n) {
        Vcpu v = new Vcpu(vm, uid, uid, r.nextInt(n));
        v.hardAffinity.set(0, n);
        RtdsVcpu svc = new RtdsVcpu(v);
        v.policyData = svc;
        svc.level = r.nextInt(3);
        svc.curDeadline = 10L * r.nextInt(4);
        return svc;
    }
}
