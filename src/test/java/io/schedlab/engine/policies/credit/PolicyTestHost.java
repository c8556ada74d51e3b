package io.schedlab.engine.policies.credit;

import io.schedlab.engine.model.Pcpu;
import io.schedlab.engine.model.Topology;
import io.schedlab.engine.model.Vcpu;
import io.schedlab.engine.model.VcpuState;
import io.schedlab.engine.model.Vm;
import io.schedlab.engine.policies.Decision;
import io.schedlab.engine.policies.SchedulerContext;
import io.schedlab.engine.policies.SchedulerPolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;

/**
 * A tiny deterministic host driving a policy the way the simulator contract describes
 * (SchedulerPolicy javadoc), for policy unit tests before/independently of the engine: timers,
 * tickles (delivered at the same instant, after the current event), slice timers, instant
 * context switches, and vCPUs that either loop forever or alternate run/sleep bursts. It checks
 * the contract on every switch (hard affinity, one pCPU per vCPU, runnable choice).
 *
 * <p>Outcome tests (shares, caps, spreading, stealing, affinity) run through the real engine
 * ({@code PolicyRuns}). What stays here needs what the result document does not show: the policy's
 * internal state at an exact instant (credit, priority and boost, active weight, resets, balances,
 * run queue of a vCPU), a direct {@code doSchedule} answer (rate limit, runtime clamps), a credit2 cap
 * under a Xen release whose caps the validator rejects, or {@code yield}, which the engine does not
 * call.
 */
public final class PolicyTestHost implements SchedulerContext {

    /** What a guest vCPU does: run {@code runNanos} of CPU, sleep {@code sleepNanos}; runNanos < 0 = loop. */
    public record Behaviour(long runNanos, long sleepNanos) {
        public static Behaviour loop() {
            return new Behaviour(-1, 0);
        }
    }

    private record Event(long at, long seq, Runnable action, boolean[] cancelled) {
    }

    private final PriorityQueue<Event> events = new PriorityQueue<>(
            (a, b) -> a.at != b.at ? Long.compare(a.at, b.at) : Long.compare(a.seq, b.seq));
    private final Topology topo;
    private final List<Vm> vms = new ArrayList<>();
    private final List<Vcpu> vcpus = new ArrayList<>();
    private final SplittableRandom random = new SplittableRandom(42);
    private SchedulerPolicy policy;
    private long now;
    private long seq;
    private long[] startedAt = new long[0];
    private long[] runStart = new long[0];
    private long[] cpuTime = new long[0];
    private Behaviour[] behaviour = new Behaviour[0];
    private long[] burstLeft = new long[0];
    private final TimerHandle[] sliceTimer;
    private TimerHandle[] burstTimer = new TimerHandle[0];
    private final boolean[] tickled;

    public PolicyTestHost(int sockets, int coresPerSocket, int threadsPerCore) {
        List<Pcpu> pcpus = new ArrayList<>();
        for (int s = 0; s < sockets; s++) {
            for (int c = 0; c < coresPerSocket; c++) {
                for (int t = 0; t < threadsPerCore; t++) {
                    int id = pcpus.size();
                    pcpus.add(new Pcpu(id, s, s * coresPerSocket + c, t, s));
                }
            }
        }
        int[][] dist = new int[sockets][sockets];
        for (int a = 0; a < sockets; a++) {
            for (int b = 0; b < sockets; b++) {
                dist[a][b] = a == b ? 10 : 20;
            }
        }
        topo = new Topology(pcpus, sockets, coresPerSocket, threadsPerCore, sockets, dist, new double[sockets],
                new long[sockets], 8192, 256, 32);
        sliceTimer = new TimerHandle[pcpus.size()];
        tickled = new boolean[pcpus.size()];
    }

    public PolicyTestHost start(SchedulerPolicy p) {
        this.policy = p;
        p.init(this);
        return this;
    }

    /** Adds a VM whose vCPUs start at the given pCPUs (placement) with the given behaviour, waking at time 0. */
    public Vm addVm(String name, int weight, int cap, Behaviour b, int... placement) {
        return addVm(name, weight, cap, true, b, placement);
    }

    /** As {@link #addVm(String, int, int, Behaviour, int...)}; when {@code awake} is false the vCPUs stay offline until {@link #wake}. */
    public Vm addVm(String name, int weight, int cap, boolean awake, Behaviour b, int... placement) {
        Vm vm = new Vm(vms.size(), name, weight, cap, 256, 0);
        vms.add(vm);
        for (int i = 0; i < placement.length; i++) {
            Vcpu v = new Vcpu(vm, i, vcpus.size(), placement[i]);
            v.hardAffinity.set(0, topo.size());
            vm.vcpus.add(v);
            vcpus.add(v);
            grow();
            behaviour[v.uid] = b;
            burstLeft[v.uid] = b.runNanos();
            policy.addVcpu(v);
        }
        for (Vcpu v : vm.vcpus) {
            if (awake) {
                at(now, () -> wake(v));
            }
        }
        return vm;
    }

    private void grow() {
        int k = vcpus.size();
        startedAt = java.util.Arrays.copyOf(startedAt, k);
        runStart = java.util.Arrays.copyOf(runStart, k);
        cpuTime = java.util.Arrays.copyOf(cpuTime, k);
        behaviour = java.util.Arrays.copyOf(behaviour, k);
        burstLeft = java.util.Arrays.copyOf(burstLeft, k);
        burstTimer = java.util.Arrays.copyOf(burstTimer, k);
    }

    public void wake(Vcpu v) {
        if (v.state == VcpuState.RUNNING || v.state == VcpuState.RUNNABLE) {
            return;
        }
        v.state = VcpuState.RUNNABLE;
        int cpu = policy.pickCpu(v);
        if (!v.allowedOn(cpu)) {
            throw new AssertionError("pickCpu " + cpu + " outside hard affinity of " + v);
        }
        v.processor = cpu;
        policy.wake(v);
    }

    public void block(Vcpu v) {
        boolean wasRunning = v.state == VcpuState.RUNNING;
        v.state = VcpuState.BLOCKED;
        policy.sleep(v);
        if (wasRunning) {
            schedule(topo.pcpu(v.processor), false);
        }
    }

    /** Yield: the policy is told, then v's pCPU schedules with prevYielded. */
    public void yieldVcpu(Vcpu v) {
        policy.yield(v);
        schedule(topo.pcpu(v.processor), true);
    }

    /** Runs every event up to and including time {@code until}, then accounts running time. */
    public void runUntil(long until) {
        while (!events.isEmpty() && events.peek().at <= until) {
            Event e = events.poll();
            now = e.at;
            if (!e.cancelled[0]) {
                e.action.run();
            }
        }
        now = until;
        for (Pcpu p : topo.pcpus()) {
            if (p.current != null) {
                account(p.current, p.id);
            }
        }
    }

    public void at(long time, Runnable action) {
        setTimer(time, action);
    }

    private void account(Vcpu v, int cpu) {
        long d = now - startedAt[v.uid];
        cpuTime[v.uid] += d;
        if (burstLeft[v.uid] > 0) {
            burstLeft[v.uid] -= d;
        }
        startedAt[v.uid] = now;
    }

    private void schedule(Pcpu p, boolean yielded) {
        tickled[p.id] = false;
        Vcpu prev = p.current;
        if (prev != null) {
            account(prev, p.id);
        }
        Decision d = policy.doSchedule(p, prev, yielded);
        Vcpu next = d.next();
        if (next != null) {
            if (!next.allowedOn(p.id)) {
                throw new AssertionError(next + " chosen on " + p + " outside its hard affinity");
            }
            if (next != prev && next.state != VcpuState.RUNNABLE) {
                throw new AssertionError(next + " chosen while " + next.state);
            }
            for (Pcpu o : topo.pcpus()) {
                if (o != p && o.current == next) {
                    throw new AssertionError(next + " chosen on " + p + " while running on " + o);
                }
            }
        }
        if (sliceTimer[p.id] != null) {
            sliceTimer[p.id].cancel();
            sliceTimer[p.id] = null;
        }
        if (next != prev) {
            if (prev != null) {
                if (burstTimer[prev.uid] != null) {
                    burstTimer[prev.uid].cancel();
                    burstTimer[prev.uid] = null;
                }
                if (prev.state == VcpuState.RUNNING) {
                    prev.state = VcpuState.RUNNABLE;
                }
            }
            p.current = next;
            if (next != null) {
                next.state = VcpuState.RUNNING;
                next.processor = p.id;
                startedAt[next.uid] = now;
                runStart[next.uid] = now;
                armBurst(next);
            }
            if (prev != null) {
                policy.contextSaved(prev);
            }
        }
        if (d.runNanos() >= 0) {
            sliceTimer[p.id] = setTimer(now + d.runNanos(), () -> schedule(p, false));
        }
    }

    private void armBurst(Vcpu v) {
        Behaviour b = behaviour[v.uid];
        if (b.runNanos() < 0) {
            return;
        }
        if (burstLeft[v.uid] <= 0) {
            burstLeft[v.uid] = b.runNanos();
        }
        burstTimer[v.uid] = setTimer(now + burstLeft[v.uid], () -> {
            burstTimer[v.uid] = null;
            account(v, v.processor);
            burstLeft[v.uid] = 0;
            block(v);
            at(now + b.sleepNanos(), () -> wake(v));
        });
    }

    public long cpuTime(Vcpu v) {
        return cpuTime[v.uid];
    }

    public long cpuTime(Vm vm) {
        long t = 0;
        for (Vcpu v : vm.vcpus) {
            t += cpuTime[v.uid];
        }
        return t;
    }

    @Override
    public long now() {
        return now;
    }

    @Override
    public Topology topology() {
        return topo;
    }

    @Override
    public List<Vm> vms() {
        return vms;
    }

    @Override
    public void tickle(int pcpu) {
        if (tickled[pcpu]) {
            return;
        }
        tickled[pcpu] = true;
        at(now, () -> {
            if (tickled[pcpu]) {
                schedule(topo.pcpu(pcpu), false);
            }
        });
    }

    @Override
    public TimerHandle setTimer(long at, Runnable action) {
        if (at < now) {
            throw new AssertionError("timer in the past: " + at + " < " + now);
        }
        boolean[] cancelled = new boolean[1];
        events.add(new Event(at, seq++, action, cancelled));
        return () -> cancelled[0] = true;
    }

    @Override
    public RandomGenerator random() {
        return random;
    }

    @Override
    public long runningFor(Vcpu v) {
        return v.state == VcpuState.RUNNING ? now - runStart[v.uid] : 0;
    }

    @Override
    public boolean isSpinning(Vcpu v) {
        return false;
    }

    @Override
    public io.schedlab.engine.registry.Params schedParams(Vcpu v) {
        return new io.schedlab.engine.registry.Params(java.util.Map.of());
    }

    @Override
    public io.schedlab.engine.registry.Params schedParams(Vm vm) {
        return new io.schedlab.engine.registry.Params(java.util.Map.of());
    }
}
