package io.schedlab.engine.policies.credit2;

import static io.schedlab.engine.policies.PolicyRuns.loops;
import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.TestSpecs;
import io.schedlab.engine.model.Vcpu;
import io.schedlab.engine.model.VcpuState;
import io.schedlab.engine.policies.PolicyRuns;
import io.schedlab.engine.sim.SimulatorProbe;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.VmSpec;
import io.schedlab.engine.spec.WorkloadSpec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Where credit2 places a vCPU, per release, through the real simulator: csched2_vcpu_insert keeps the
 * creation-time processor up to 4.7 and picks from 4.8; a wake-up never picks (vcpu_wake calls only the
 * policy's wake); 4.6's choose_cpu cycles from the vCPU's processor within the chosen run queue.
 */
class Credit2PlacementTest {
    private static final long MS = 1_000_000L;
    /** When the late VM starts: the three loops have run 100 ms, so their queues carry load. */
    private static final double LATE_START_SECONDS = 0.1;
    private static final long LATE_START = 100 * MS;

    /**
     * Three loops on pCPUs 0-2 of a 1 x 4 host with one run queue per core (pCPU 3's queue stays idle),
     * and {@code late}, placed on pCPU 0, starting at {@link #LATE_START_SECONDS}.
     */
    private static SimulatorProbe threeBusyQueues(String version, VmSpec late) {
        return PolicyRuns.probe("credit2", Map.of("xenVersion", version, "runqueue", "core"), 1, 4, 1, 1.0,
                List.of(loops("busy", 256, 0, 3, 0, 1, 2), PolicyRuns.startingAt(late, LATE_START_SECONDS)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"4.6", "4.7", "4.8", "4.10"})
    void insertKeepsTheCreationProcessorUpTo47AndPicksTheLeastLoadedQueueFrom48(String version) {
        SimulatorProbe sim = threeBusyQueues(version, loops("late", 256, 0, 1, 0));
        Credit2Policy pol = sim.policy(Credit2Policy.class);
        sim.runUntil(LATE_START - 1);
        assertThat(pol.runqueueCount()).isEqualTo(4);
        double[] load = new double[4];
        double min = Double.MAX_VALUE;
        for (int q = 0; q < 4; q++) {
            load[q] = pol.runqueueLoad(q);
            min = Math.min(min, load[q]);
        }
        assertThat(load[0]).as("precondition: pCPU 0's queue is not the least loaded").isGreaterThan(min);
        // the late VM starts: its vCPU is inserted (created on pCPU 0) and woken at once, before any balancing
        sim.runUntil(LATE_START);
        Vcpu v = sim.vcpu("late", 0);
        assertThat(v.state).isNotEqualTo(VcpuState.BLOCKED);
        int rq = Credit2Policy.runqueueOfVcpu(v);
        boolean picks = !"4.6".equals(version) && !"4.7".equals(version);
        if (picks) {
            assertThat(load[rq]).as(version + ": queue " + rq).isEqualTo(min);
            assertThat(v.processor).as(version).isNotZero();
        } else {
            assertThat(rq).as(version).isZero();
            assertThat(v.processor).as(version).isZero();
        }
    }

    @Test
    void aWakeUpStaysOnItsRunQueueBesideAnIdleOne() {
        // one vCPU on pCPU 0 that computes 200 us, then sleeps 5 ms (no jitter), over and over
        VmSpec bursty = new VmSpec("late", 1, 256, 0, null, null, null, null, null, List.of(0), null,
                new WorkloadSpec("idle", Map.of("threads", 1, "wakeIntervalMs", 5, "burstUs", 200, "jitter", 0.0)));
        SimulatorProbe sim = threeBusyQueues("4.6", bursty);
        Credit2Policy pol = sim.policy(Credit2Policy.class);
        sim.runUntil(LATE_START);
        Vcpu v = sim.vcpu("late", 0);
        int wakes = 0;
        boolean blocked = false;
        for (long t = LATE_START + 100_000; t <= LATE_START + 60 * MS; t += 100_000) {
            sim.runUntil(t);
            if (v.state == VcpuState.BLOCKED) {
                blocked = true;
                continue;
            }
            if (blocked) {
                wakes++;
                // queue 3 is idle and least loaded, yet only balance_load moves a vCPU between queues
                assertThat(pol.runqueueLoad(3)).as("precondition: queue 3 is idle").isLessThan(pol.runqueueLoad(0));
                assertThat(v.processor).as("wake %d at %d ns", wakes, t).isZero();
                assertThat(Credit2Policy.runqueueOfVcpu(v)).as("wake %d", wakes).isZero();
            }
            blocked = false;
        }
        assertThat(wakes).as("wake-ups seen").isGreaterThanOrEqualTo(5);
    }

    @Test
    void xen46ChooseCpuCyclesFromTheProcessorWhileLaterReleasesTakeTheFirst() {
        for (String version : new String[] {"4.6", "4.8"}) {
            // a loop pinned to pCPU 1 of one socket-wide run queue runs there; at 10 ms xl vcpu-pin moves it to
            // pCPUs 0 and 3: pCPU 1 is no longer allowed, so vcpu_migrate picks (choose_cpu / csched2_cpu_pick)
            VmSpec guest = new VmSpec("guest", 1, 256, 0, List.of(1), null, null, null, null, List.of(1), null,
                    new WorkloadSpec("cpu-loop", Map.of("threads", 1, "workSeconds", 0)));
            ExperimentSpec spec = PolicyRuns.spec("credit2", Map.of("xenVersion", version, "runqueue", "socket"), 1,
                    4, 1, 1.0, List.of(guest));
            spec = new ExperimentSpec(spec.name(), spec.labels(), spec.seed(), spec.durationSeconds(),
                    spec.stopWhen(), spec.host(), spec.scheduler(), spec.costs(), spec.vms(),
                    List.of(TestSpecs.pin(0.01, "guest", 0, 0, 3)), spec.trace());
            SimulatorProbe sim = SimulatorProbe.of(spec);
            Vcpu v = sim.vcpu("guest", 0);
            sim.runUntil(10 * MS - 1);
            assertThat(v.state).as(version + ": runs before the pin").isEqualTo(VcpuState.RUNNING);
            assertThat(v.processor).as(version).isEqualTo(1);
            sim.runUntil(20 * MS);
            assertThat(v.state).as(version + ": runs after the pin").isEqualTo(VcpuState.RUNNING);
            assertThat(v.processor).as(version).isEqualTo("4.6".equals(version) ? 3 : 0);
        }
    }
}
