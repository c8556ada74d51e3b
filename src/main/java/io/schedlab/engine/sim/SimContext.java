package io.schedlab.engine.sim;

import io.schedlab.engine.model.Topology;
import io.schedlab.engine.model.Vcpu;
import io.schedlab.engine.model.VcpuState;
import io.schedlab.engine.model.Vm;
import io.schedlab.engine.policies.SchedulerContext;
import io.schedlab.engine.params.Params;
import java.util.Arrays;
import java.util.List;
import java.util.random.RandomGenerator;

/** The simulator as a policy sees it; policy timers live in a recycled slot table (no per-event allocation but the handle). */
final class SimContext implements SchedulerContext {
    private final Simulator sim;
    private final RandomGenerator random;
    private Runnable[] actions = new Runnable[64];
    private int[] generations = new int[64];
    private int[] free = new int[64];
    private int freeCount;
    private int used;

    SimContext(Simulator sim, RandomGenerator random) {
        this.sim = sim;
        this.random = random;
    }

    @Override
    public long now() {
        return sim.now();
    }

    @Override
    public Topology topology() {
        return sim.topo();
    }

    @Override
    public List<Vm> vms() {
        return sim.tables().liveVms();
    }

    @Override
    public void tickle(int pcpu) {
        sim.path().tickle(pcpu);
    }

    @Override
    public TimerHandle setTimer(long at, Runnable action) {
        int slot;
        if (freeCount > 0) {
            slot = free[--freeCount];
        } else {
            if (used == actions.length) {
                actions = Arrays.copyOf(actions, used * 2);
                generations = Arrays.copyOf(generations, used * 2);
                free = Arrays.copyOf(free, used * 2);
            }
            slot = used++;
        }
        actions[slot] = action;
        int gen = generations[slot];
        sim.push(Math.max(at, sim.now()), Simulator.EV_TIMER, slot, gen);
        return new Handle(slot, gen);
    }

    boolean isStale(int slot, int generation) {
        return generations[slot] != generation || actions[slot] == null;
    }

    /** Runs the timer in {@code slot} if it is still the one scheduled with {@code generation}. */
    void fire(int slot, int generation) {
        if (generations[slot] != generation || actions[slot] == null) {
            return;
        }
        Runnable action = actions[slot];
        release(slot);
        sim.path().runPolicyTimer(action);
    }

    private void release(int slot) {
        actions[slot] = null;
        generations[slot]++;
        free[freeCount++] = slot;
    }

    @Override
    public RandomGenerator random() {
        return random;
    }

    @Override
    public long runningFor(Vcpu v) {
        if (v.state != VcpuState.RUNNING) {
            return 0;
        }
        return Math.max(0, sim.now() - sim.tables().vcpu(v.uid).runningSince);
    }

    @Override
    public boolean isSpinning(Vcpu v) {
        if (v.state != VcpuState.RUNNING) {
            return false;
        }
        GuestThreadRun th = sim.tables().vcpu(v.uid).thread;
        return th != null && th.mode == GuestThreadRun.SPIN;
    }

    @Override
    public Params schedParams(Vcpu v) {
        return sim.tables().vcpu(v.uid).schedParams;
    }

    @Override
    public Params schedParams(Vm vm) {
        return sim.tables().vm(vm.id).schedParams;
    }

    private final class Handle implements TimerHandle {
        private final int slot;
        private final int generation;

        Handle(int slot, int generation) {
            this.slot = slot;
            this.generation = generation;
        }

        @Override
        public void cancel() {
            if (generations[slot] == generation && actions[slot] != null) {
                release(slot);
            }
        }
    }
}
