package io.schedlab.engine.workloads;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;

/**
 * A tiny deterministic driver for workload unit tests: runs guest threads on {@code cpus} dedicated
 * CPUs without preemption (a thread keeps its CPU until it sleeps or exits), FIFO ready queue,
 * ticket spinlocks whose waiters spin on their CPU, and a constant progress-rate factor for memory
 * streams. Not the engine: just enough to check what a workload's programs do.
 */
final class FakeGuest implements WorkloadEnv {
    private final int cpus;
    private final int vcpus;
    private final double memoryRate;
    private final SplittableRandom random;
    private final PriorityQueue<long[]> events = new PriorityQueue<>((a, b) -> a[0] != b[0]
            ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
    private final List<ThreadState> threads = new ArrayList<>();
    private final ArrayDeque<ThreadState> ready = new ArrayDeque<>();
    private final List<ArrayDeque<ThreadState>> lockWaiters = new ArrayList<>();
    private final List<ThreadState> lockHolders = new ArrayList<>();
    private long now;
    private long seq;
    private int busyCpus;
    long computeNanosExecuted;
    long memoryComputeNanos;
    /** The caches workloads see: a Xeon X5570-class host with the cost model's default rates. */
    MemoryHierarchy memory = new MemoryHierarchy(32, 256, 8192, 44_700, 20_000, 12_000, 610);

    FakeGuest(int cpus, long seed) {
        this(cpus, cpus, 1.0, seed);
    }

    FakeGuest(int cpus, int vcpus, double memoryRate, long seed) {
        this.cpus = cpus;
        this.vcpus = vcpus;
        this.memoryRate = memoryRate;
        this.random = new SplittableRandom(seed);
    }

    private static final class ThreadState {
        final GuestThread program;
        final int id;
        Phase phase;
        boolean onCpu;

        ThreadState(GuestThread program, int id) {
            this.program = program;
            this.id = id;
        }
    }

    @Override
    public long now() {
        return now;
    }

    @Override
    public MemoryHierarchy memory() {
        return memory;
    }

    @Override
    public int vcpus() {
        return vcpus;
    }

    @Override
    public RandomGenerator random() {
        return random;
    }

    @Override
    public void spawn(GuestThread thread) {
        ThreadState t = new ThreadState(thread, threads.size());
        threads.add(t);
        schedule(now, t);
    }

    /** Start the workload at time 0 and run until no event is left or {@code until} is reached. */
    long run(Workload workload, long until) {
        workload.start(this);
        while (!events.isEmpty() && events.peek()[0] <= until) {
            long[] e = events.poll();
            now = e[0];
            advance(threads.get((int) e[2]));
        }
        if (!events.isEmpty()) {
            now = until;
        }
        return now;
    }

    private void schedule(long at, ThreadState t) {
        events.add(new long[] {at, seq++, t.id});
    }

    /** The thread's current phase has ended at {@code now}: ask for the next one and act on it. */
    private void advance(ThreadState t) {
        while (true) {
            Phase p = t.program.next(now);
            t.phase = p;
            if (p instanceof Phase.Compute c) {
                if (!t.onCpu && !takeCpu(t)) {
                    ready.add(t);
                    return;
                }
                startCompute(t, c);
                return;
            } else if (p instanceof Phase.Sleep s) {
                releaseCpu(t);
                schedule(now + s.nanos(), t);
                return;
            } else if (p instanceof Phase.Acquire a) {
                if (!t.onCpu && !takeCpu(t)) {
                    ready.add(t);
                    return;
                }
                if (!acquire(t, a.lock())) {
                    return; // spinning on its CPU until the holder releases
                }
            } else if (p instanceof Phase.Release r) {
                release(t, r.lock());
            } else {
                releaseCpu(t);
                return;
            }
        }
    }

    private void startCompute(ThreadState t, Phase.Compute c) {
        long duration = c.memoryStream() ? Math.round(c.workNanos() / memoryRate) : c.workNanos();
        computeNanosExecuted += c.workNanos();
        if (c.memoryStream()) {
            memoryComputeNanos += c.workNanos();
        }
        schedule(now + duration, t);
    }

    private boolean takeCpu(ThreadState t) {
        if (busyCpus < cpus) {
            busyCpus++;
            t.onCpu = true;
            return true;
        }
        return false;
    }

    private void releaseCpu(ThreadState t) {
        if (!t.onCpu) {
            return;
        }
        t.onCpu = false;
        busyCpus--;
        ThreadState next = ready.poll();
        if (next != null) {
            takeCpu(next);
            if (next.phase instanceof Phase.Compute c) {
                startCompute(next, c);
            } else if (next.phase instanceof Phase.Acquire a) {
                if (acquire(next, a.lock())) {
                    schedule(now, next);
                }
            } else {
                throw new IllegalStateException("unexpected queued phase " + next.phase);
            }
        }
    }

    private boolean acquire(ThreadState t, int lock) {
        while (lockHolders.size() <= lock) {
            lockHolders.add(null);
            lockWaiters.add(new ArrayDeque<>());
        }
        if (lockHolders.get(lock) == null) {
            lockHolders.set(lock, t);
            return true;
        }
        lockWaiters.get(lock).add(t);
        return false;
    }

    private void release(ThreadState t, int lock) {
        if (lock >= lockHolders.size() || lockHolders.get(lock) != t) {
            throw new IllegalStateException("thread " + t.id + " releases lock " + lock + " it does not hold");
        }
        ThreadState next = lockWaiters.get(lock).poll();
        lockHolders.set(lock, next);
        if (next != null) {
            schedule(now, next); // its Acquire phase ends now
        }
    }
}
