package io.schedlab.engine.policies.linux;

import io.schedlab.engine.model.Topology;
import io.schedlab.engine.model.Vcpu;
import io.schedlab.engine.model.Vm;
import io.schedlab.engine.params.Params;
import io.schedlab.engine.policies.SchedulerContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.random.RandomGenerator;

/** A policy's context for unit tests of the fair class: a clock the test sets and the pCPUs tickled, nothing else. */
final class StubContext implements SchedulerContext {
    final List<Integer> tickled = new ArrayList<>();
    long now;

    @Override
    public long now() {
        return now;
    }

    @Override
    public Topology topology() {
        throw new UnsupportedOperationException();
    }

    @Override
    public List<Vm> vms() {
        return List.of();
    }

    @Override
    public void tickle(int pcpu) {
        tickled.add(pcpu);
    }

    @Override
    public TimerHandle setTimer(long at, Runnable action) {
        throw new UnsupportedOperationException();
    }

    @Override
    public RandomGenerator random() {
        throw new UnsupportedOperationException();
    }

    @Override
    public long runningFor(Vcpu v) {
        return 0;
    }

    @Override
    public boolean isSpinning(Vcpu v) {
        return false;
    }

    @Override
    public Params schedParams(Vcpu v) {
        return new Params(Map.of());
    }

    @Override
    public Params schedParams(Vm vm) {
        return new Params(Map.of());
    }
}
