package io.schedlab.engine.sim;

import io.schedlab.engine.costs.CostModel;
import io.schedlab.engine.model.VcpuState;
import io.schedlab.engine.workloads.GuestThread;
import io.schedlab.engine.workloads.Phase;
import io.schedlab.engine.workloads.MemoryHierarchy;
import io.schedlab.engine.workloads.WorkloadEnv;
import java.util.Arrays;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * The guest kernels: each VM time-shares its runnable guest threads over its vCPUs through one
 * FIFO ready queue, with a time slice (CFS-like, {@code guestSliceUs}) when threads outnumber
 * vCPUs. A vCPU with no thread blocks (Xen SCHEDOP_block); a waking thread wakes a blocked vCPU
 * (preferring the one it last ran on). Spinlocks are ticket locks: a waiting thread spins on its
 * vCPU, which stays busy without progress; the guest never preempts a spinning or lock-holding thread.
 * The guest reports when a thread starts and stops spinning, and a lock handed to a waiter whose
 * vCPU is preempted, to the hypervisor layer (KVM turns spinning into pause-loop exits). Mutexes block: a
 * waiter leaves its vCPU and is handed the mutex in FIFO order when it is unlocked. Counting semaphores
 * block the same way: a waiter without a unit leaves its vCPU, and a post hands the unit to the longest
 * waiter, which wakes (a socket reader woken by a writer's message).
 */
final class GuestKernel {
    /** A thread taking more zero-time phases in a row than this is a workload bug. */
    static final int MAX_INSTANT_PHASES = 100_000;
    /** What a thread took again, for the error (spinlock or mutex id). */
    private static final String SPINLOCK = "spinlock %d it holds (ticket locks are not recursive)";
    private static final String MUTEX = "mutex %d it holds (default pthread mutexes are not recursive)";

    /** The clock, the event queue and the parts built after this (progress, path, hypervisor layer, lifecycle). */
    private final Simulator sim;
    private final CostModel costs;
    private final RunLatencies latencies;
    private GuestThreadRun[] threads = new GuestThreadRun[256];
    private int threadCount;
    private int[] free = new int[256];
    private int freeCount;

    /** The host's caches as workloads see them. */
    private final MemoryHierarchy memory;
    /** Flush IPIs between this run's vCPUs and the senders waiting for them. */
    private final TlbShootdowns shootdowns;

    GuestKernel(Simulator sim) {
        this.sim = sim;
        this.costs = sim.costs();
        this.latencies = sim.latencies();
        this.memory = new MemoryHierarchy(sim.topo().l1KbPerCore(), sim.topo().l2KbPerCore(), sim.topo().llcKbPerSocket(),
                costs.l1BandwidthMBps(), costs.l2BandwidthMBps(), costs.llcBandwidthMBps(),
                costs.memoryRefillMBps());
        this.shootdowns = new TlbShootdowns(sim);
    }

    TlbShootdowns shootdowns() {
        return shootdowns;
    }

    /** Calls the workload's start with an environment bound to this VM. */
    void startWorkload(VmRun run) {
        RandomGenerator random = Seeds.stream(sim.seed(), "workload:" + run.vm.name);
        run.workload.start(new WorkloadEnv() {
            @Override
            public long now() {
                return sim.now();
            }

            @Override
            public int vcpus() {
                return run.vcpus.size();
            }

            @Override
            public RandomGenerator random() {
                return random;
            }

            @Override
            public MemoryHierarchy memory() {
                return memory;
            }

            @Override
            public void spawn(GuestThread thread) {
                GuestKernel.this.spawn(run, thread);
            }
        });
    }

    void spawn(VmRun run, GuestThread program) {
        if (!run.vm.alive) {
            return;
        }
        GuestThreadRun th = allocate();
        th.vm = run;
        th.program = program;
        th.where = GuestThreadRun.READY;
        th.mode = GuestThreadRun.ADVANCE;
        th.readyAt = -1;
        th.indexInVm = run.threads.size();
        run.threads.add(th);
        dispatch(th);
    }

    /** A thread became ready: give it a blocked vCPU of its VM (its last one first) or queue it. */
    private void dispatch(GuestThreadRun th) {
        VmRun run = th.vm;
        VcpuRun target = null;
        VcpuRun last = th.last;
        if (last != null && th.program.forksOnWake()) {
            target = forkTarget(run, last);
        } else if (last != null && idleBlocked(last)) {
            target = last;
        } else {
            for (VcpuRun vr : run.vcpus) {
                if (idleBlocked(vr)) {
                    target = vr;
                    break;
                }
            }
        }
        if (target != null) {
            assign(th, target);
            sim.path().wake(target);
            return;
        }
        run.ready.addLast(th);
        if (run.ready.size() == 1) {
            // Threads now outnumber vCPUs: running vCPUs get a guest time slice.
            for (VcpuRun vr : run.vcpus) {
                if (vr.v.state == VcpuState.RUNNING) {
                    sim.progress().settle(vr);
                    replan(vr);
                }
            }
        }
    }

    /**
     * Where a guest Linux places a new process forked on {@code parent}'s vCPU (wake_up_new_task ->
     * select_task_rq_fair with SD_BALANCE_FORK, kernel/sched/fair.c v4.1 find_idlest_group / find_idlest_cpu):
     * the guest sees its vCPUs flat, one CPU per group; an idle vCPU's runnable load is 0, below the running
     * parent's, so the child leaves the parent's vCPU for the first idle group in the domain's group list, which
     * runs in CPU order from the parent's group (strict {@code avg_load < min_load} keeps the first of equal
     * loads). With no other vCPU idle the parent's is the idlest once the parent waits. Returns null when every
     * vCPU is busy (the child queues).
     */
    private static VcpuRun forkTarget(VmRun run, VcpuRun parent) {
        List<VcpuRun> vcpus = run.vcpus;
        int n = vcpus.size();
        int from = vcpus.indexOf(parent);
        for (int k = 1; k < n; k++) {
            VcpuRun vr = vcpus.get((from + k) % n);
            if (idleBlocked(vr)) {
                return vr;
            }
        }
        return idleBlocked(parent) ? parent : null;
    }

    private static boolean idleBlocked(VcpuRun vr) {
        return vr.thread == null && vr.v.state == VcpuState.BLOCKED && !vr.migrating && vr.vm.vm.alive;
    }

    private static void assign(GuestThreadRun th, VcpuRun vr) {
        th.where = GuestThreadRun.ON_VCPU;
        th.on = vr;
        th.sliceUsed = 0;
        vr.thread = th;
    }

    /** A vCPU started running on a pCPU at {@code t}. */
    void onVcpuStart(VcpuRun vr, long t) {
        GuestThreadRun th = vr.thread;
        if (th != null) {
            recordWakeLatency(vr, th, t);
            retakeFreeLock(vr);
        }
        updateStreaming(vr, true);
        replan(vr);
    }

    private void recordWakeLatency(VcpuRun vr, GuestThreadRun th, long t) {
        if (th.readyAt >= 0) {
            long latency = t - th.readyAt;
            vr.wakeLatency.record(latency);
            vr.vm.wakeLatency.record(latency);
            latencies.wake(latency);
            th.readyAt = -1;
        }
    }

    /** The running vCPU's plan event fired: its thread finished a phase or its guest slice ended. */
    void onPlan(VcpuRun vr) {
        sim.progress().settle(vr);
        GuestThreadRun th = vr.thread;
        if (th == null) {
            return;
        }
        if (th.mode == GuestThreadRun.COMPUTE && th.remaining < 0.5) {
            th.mode = GuestThreadRun.ADVANCE;
        }
        if (th.mode == GuestThreadRun.ADVANCE) {
            runPhases(vr);
        } else if (!vr.vm.ready.isEmpty() && th.locksHeld == 0 && th.mode != GuestThreadRun.SPIN
                && th.sliceUsed >= costs.guestSliceNanos()) {
            rotate(vr, th);
        } else {
            replan(vr);
        }
    }

    /** Guest preemption at the end of a slice: th goes to the back of the ready queue, the head takes the vCPU. */
    private void rotate(VcpuRun vr, GuestThreadRun th) {
        VmRun run = vr.vm;
        th.where = GuestThreadRun.READY;
        th.on = null;
        th.last = vr;
        vr.thread = null;
        run.ready.addLast(th);
        GuestThreadRun next = run.ready.pollFirst();
        assign(next, vr);
        recordWakeLatency(vr, next, Math.max(sim.now(), vr.runStart));
        if (next.mode == GuestThreadRun.ADVANCE) {
            runPhases(vr);
        } else {
            updateStreaming(vr, true);
            replan(vr);
        }
    }

    /** Advance the vCPU's thread through its phases; when it leaves, run the next ready thread or block the vCPU. */
    private void runPhases(VcpuRun vr) {
        VmRun run = vr.vm;
        while (true) {
            GuestThreadRun th = vr.thread;
            advance(th);
            if (th.where == GuestThreadRun.ON_VCPU) {
                updateStreaming(vr, true);
                replan(vr);
                return;
            }
            vr.thread = null;
            th.on = null;
            th.last = vr;
            if (th.where == GuestThreadRun.DEAD) {
                exited(th);
            }
            GuestThreadRun next = run.vm.alive ? run.ready.pollFirst() : null;
            if (next == null) {
                updateStreaming(vr, false);
                if (vr.v.state == VcpuState.RUNNING) {
                    sim.path().block(vr);
                }
                return;
            }
            assign(next, vr);
            recordWakeLatency(vr, next, Math.max(sim.now(), vr.runStart));
            if (next.mode != GuestThreadRun.ADVANCE) {
                updateStreaming(vr, true);
                replan(vr);
                return;
            }
        }
    }

    /** Take the thread's next phases until one takes time (compute, spin) or it leaves its vCPU (sleep, mutex wait, exit). */
    private void advance(GuestThreadRun th) {
        for (int i = 0; ; i++) {
            if (i > MAX_INSTANT_PHASES) {
                throw new IllegalStateException("workload of VM " + th.vm.vm.name + ": a thread took "
                        + MAX_INSTANT_PHASES + " phases in a row without using time");
            }
            Phase ph = th.program.next(sim.now());
            if (ph == null || ph instanceof Phase.Exit) {
                th.where = GuestThreadRun.DEAD;
                return;
            }
            if (ph instanceof Phase.Compute c) {
                if (c.workNanos() > 0) {
                    th.mode = GuestThreadRun.COMPUTE;
                    th.remaining = c.workNanos();
                    th.memoryStream = c.memoryStream();
                    th.kernel = c.kernel();
                    return;
                }
            } else if (ph instanceof Phase.Sleep s) {
                th.where = GuestThreadRun.SLEEPING;
                th.mode = GuestThreadRun.ADVANCE;
                sim.push(sim.now() + Math.max(0, s.nanos()), Simulator.EV_THREAD_WAKE, th.id, th.version);
                return;
            } else if (ph instanceof Phase.Acquire a) {
                if (take(th.vm.lock(a.lock()), th, SPINLOCK, a.lock())) {
                    th.locksHeld++;
                } else {
                    th.mode = GuestThreadRun.SPIN;
                    th.spinningFor = th.vm.lock(a.lock());
                    if (th.on != null) {
                        sim.hyper().spinStarted(th.on.v);
                    }
                    return;
                }
            } else if (ph instanceof Phase.MutexLock m) {
                if (!take(th.vm.mutex(m.mutex()), th, MUTEX, m.mutex())) {
                    th.where = GuestThreadRun.MUTEX_WAIT;
                    th.mode = GuestThreadRun.ADVANCE;
                    return;
                }
            } else if (ph instanceof Phase.MutexUnlock u) {
                GuestLock mutex = th.vm.mutex(u.mutex());
                if (mutex.holder != th) {
                    throw new IllegalStateException("workload of VM " + th.vm.vm.name + ": a thread unlocks"
                            + " mutex " + u.mutex() + " it does not hold");
                }
                handMutexOver(mutex);
            } else if (ph instanceof Phase.SemaphoreWait w) {
                GuestSemaphore sem = th.vm.semaphore(w.semaphore());
                if (sem.units > 0) {
                    sem.units--;
                } else {
                    sem.waiters.addLast(th);
                    th.where = GuestThreadRun.SEMAPHORE_WAIT;
                    th.mode = GuestThreadRun.ADVANCE;
                    return;
                }
            } else if (ph instanceof Phase.SemaphorePost post) {
                post(th.vm.semaphore(post.semaphore()));
            } else if (ph instanceof Phase.SemaphoreInit init) {
                GuestSemaphore sem = th.vm.semaphore(init.semaphore());
                for (int k = 0; k < init.units(); k++) {
                    post(sem);
                }
            } else if (ph instanceof Phase.FlushTlb) {
                if (th.on != null && shootdowns.send(th)) {
                    th.mode = GuestThreadRun.SPIN; // csd_lock_wait: a pause loop, preemption disabled
                    sim.hyper().spinStarted(th.on.v);
                    return;
                }
            } else if (ph instanceof Phase.Release r) {
                GuestLock lock = th.vm.existingLock(r.lock());
                if (lock == null || lock.holder != th) {
                    throw new IllegalStateException("workload of VM " + th.vm.vm.name + ": a thread releases"
                            + " spinlock " + r.lock() + " it does not hold");
                }
                th.locksHeld--;
                grantNext(lock, th);
            }
        }
    }

    /**
     * Ticket order: the next waiter gets the lock; if its vCPU is running it continues now, else when it runs
     * again. The hypervisor hears that the waiter stopped spinning, and of a hand-over to a preempted vCPU.
     */
    private void grantNext(GuestLock lock, GuestThreadRun releaser) {
        GuestThreadRun next = lock.testAndSet ? runningWaiter(lock) : lock.waiters.pollFirst();
        lock.holder = next;
        if (next == null) {
            return;
        }
        next.spinningFor = null;
        VcpuRun vr = next.on;
        if (stopSpinning(next, 1)) {
            replan(vr);
        } else if (vr != null) {
            sim.hyper().lockHandedToPreempted(releaser.on == null ? null : releaser.on.v, vr.v);
        }
    }

    /** The last target of {@code th}'s shootdown ran the handler: it stops spinning and goes on. */
    void shootdownDone(GuestThreadRun th) {
        if (stopSpinning(th, 0)) {
            replan(th.on);
        }
    }

    /**
     * {@code th} stops spinning, holding {@code locksTaken} more locks, and goes on: its progress so far is settled
     * if its vCPU runs (true: the caller replans it), else it goes on when the vCPU runs again (false).
     */
    private boolean stopSpinning(GuestThreadRun th, int locksTaken) {
        VcpuRun vr = th.on;
        boolean running = vr != null && vr.v.state == VcpuState.RUNNING;
        if (running) {
            sim.progress().settle(vr);
        }
        th.locksHeld += locksTaken;
        th.mode = GuestThreadRun.ADVANCE;
        if (vr != null) {
            sim.hyper().spinStopped(vr.v);
        }
        return running;
    }

    /**
     * Test-and-set (x86 __raw_spin_lock before 2.6.25: "lock; decb" then spin on the byte until it is free):
     * the freed lock goes to a spinner whose vCPU is running, the longest waiting of them (the model's
     * deterministic stand-in for the cache-line race); with none running it stays free, and a preempted
     * spinner takes it when its vCPU runs again if no one took it first.
     */
    private static GuestThreadRun runningWaiter(GuestLock lock) {
        for (java.util.Iterator<GuestThreadRun> it = lock.waiters.iterator(); it.hasNext(); ) {
            GuestThreadRun w = it.next();
            if (w.on != null && w.on.v.state == VcpuState.RUNNING) {
                it.remove();
                return w;
            }
        }
        return null;
    }

    /** A spinner of a free test-and-set lock whose vCPU runs again takes it. */
    private void retakeFreeLock(VcpuRun vr) {
        GuestThreadRun th = vr.thread;
        if (th == null || th.mode != GuestThreadRun.SPIN || th.spinningFor == null || !th.spinningFor.testAndSet
                || th.spinningFor.holder != null) {
            return;
        }
        GuestLock lock = th.spinningFor;
        lock.waiters.remove(th);
        lock.holder = th;
        th.spinningFor = null;
        th.locksHeld++;
        th.mode = GuestThreadRun.ADVANCE;
        sim.hyper().spinStopped(vr.v);
    }

    /** Takes {@code lock} for {@code th} if it is free (true), else queues th behind its waiters (false). */
    private static boolean take(GuestLock lock, GuestThreadRun th, String kind, int id) {
        if (lock.holder == th) {
            throw new IllegalStateException("workload of VM " + th.vm.vm.name + ": a thread takes again "
                    + kind.formatted(id));
        }
        if (lock.holder == null) {
            lock.holder = th;
            return true;
        }
        lock.waiters.addLast(th);
        return false;
    }

    /**
     * Unlock with FIFO hand-off: the longest waiter becomes the holder and is woken like a sleeper (ready now,
     * placed by {@link #dispatch}); the releaser goes on. A simplification of the futex-based glibc mutex, whose
     * woken waiter retries the lock and may lose it to a running thread (nptl/pthread_mutex_unlock.c,
     * lll_unlock wakes one waiter).
     */
    private void handMutexOver(GuestLock mutex) {
        GuestThreadRun next = mutex.waiters.pollFirst();
        mutex.holder = next;
        if (next == null) {
            return;
        }
        next.where = GuestThreadRun.READY;
        next.mode = GuestThreadRun.ADVANCE;
        next.readyAt = sim.now();
        dispatch(next);
    }

    /** One unit more: the longest waiter takes it and is woken like a sleeper (ready now, placed by {@link #dispatch}). */
    private void post(GuestSemaphore sem) {
        GuestThreadRun next = sem.waiters.pollFirst();
        while (next != null && !next.vm.vm.alive) {
            next = sem.waiters.pollFirst(); // a waiter of a shut-down VM sharing these semaphores
        }
        if (next == null) {
            sem.units++;
            return;
        }
        next.where = GuestThreadRun.READY;
        next.mode = GuestThreadRun.ADVANCE;
        next.readyAt = sim.now();
        dispatch(next);
    }

    private void exited(GuestThreadRun th) {
        VmRun run = th.vm;
        List<GuestThreadRun> list = run.threads;
        int i = th.indexInVm;
        GuestThreadRun moved = list.get(list.size() - 1);
        list.set(i, moved);
        moved.indexInVm = i;
        list.remove(list.size() - 1);
        release(th);
        if (list.isEmpty() && run.countedFinite && run.completedAt < 0 && run.workload.isComplete()) {
            sim.lifecycle().vmCompleted(run);
        }
    }

    boolean isStaleWake(int id, int version) {
        GuestThreadRun th = id < threadCount ? threads[id] : null;
        return th == null || th.version != version || th.where != GuestThreadRun.SLEEPING;
    }

    /** A sleep ended (event for thread slot {@code id}). */
    void onSleepEnd(int id, int version) {
        GuestThreadRun th = id < threadCount ? threads[id] : null;
        if (th == null || th.version != version || th.where != GuestThreadRun.SLEEPING) {
            return;
        }
        th.where = GuestThreadRun.READY;
        th.mode = GuestThreadRun.ADVANCE;
        th.readyAt = sim.now();
        dispatch(th);
    }

    /** VM shutdown: every thread disappears, locks and ready queue are dropped. */
    void killThreads(VmRun run) {
        for (VcpuRun vr : run.vcpus) {
            if (vr.thread != null) {
                sim.progress().settle(vr);
                if (vr.thread.mode == GuestThreadRun.SPIN) {
                    sim.hyper().spinStopped(vr.v);
                }
                vr.thread.where = GuestThreadRun.DEAD;
                vr.thread = null;
                updateStreaming(vr, false);
            }
        }
        for (GuestThreadRun th : run.threads) {
            th.where = GuestThreadRun.DEAD;
            th.on = null;
            release(th);
        }
        run.threads.clear();
        run.ready.clear();
        shootdowns.dropAll(run);
        run.clearLocks();
    }

    /** (Re)schedule the running vCPU's next plan event: phase completion at its current rate, or guest slice end. */
    void replan(VcpuRun vr) {
        GuestThreadRun th = vr.thread;
        if (vr.v.state != VcpuState.RUNNING || th == null) {
            vr.planDeadline = Simulator.NEVER;
            return;
        }
        long t0 = Math.max(sim.now(), vr.runStart);
        long at = Simulator.NEVER;
        if (th.mode == GuestThreadRun.ADVANCE) {
            at = t0;
        } else if (th.mode == GuestThreadRun.COMPUTE) {
            double rate = sim.progress().rate(vr, th);
            vr.rate = rate;
            at = sim.progress().finishAt(vr, t0, th.remaining, rate);
        }
        if (th.mode != GuestThreadRun.SPIN && th.locksHeld == 0 && !vr.vm.ready.isEmpty()) {
            long sliceAt = t0 + Math.max(0, costs.guestSliceNanos() - th.sliceUsed);
            at = Math.min(at, sliceAt);
        }
        sim.setPlan(vr, at);
    }

    /** Keep the per-node count of running memory streams in step; re-rate the node's streams when it changes. */
    void updateStreaming(VcpuRun vr, boolean running) {
        GuestThreadRun th = vr.thread;
        boolean want = running && vr.v.state == VcpuState.RUNNING && th != null
                && th.mode == GuestThreadRun.COMPUTE && th.memoryStream;
        if (want == (vr.streamNode >= 0)) {
            return;
        }
        int node = want ? (vr.vm.vm.memoryStriped ? sim.progress().stripedSlot() : vr.memoryNode) : vr.streamNode;
        Progress progress = sim.progress();
        if (want) {
            progress.addStreamer(node, vr);
            vr.streamNode = node;
        } else {
            // callers settle a leaving vCPU first (or it no longer runs), so the others are all there is to settle
            assert progress.isSettled(vr) : vr.v + " leaves the streams unsettled";
            progress.removeStreamer(node, vr);
            vr.streamNode = -1;
        }
        if (progress.anyStriped() || node == progress.stripedSlot() || progress.remoteStreamsOnLinks()) {
            replanAllStreams(vr); // striped streams and the links' load reach every node: every stream may move
            return;
        }
        // Each other stream is settled at its old rate (settle reads the vCPU's own rate, not the
        // node's share) and re-planned at the new share: one pass, in the list's order as before.
        for (int i = 0, n = progress.streamerCount(node); i < n; i++) {
            VcpuRun other = progress.streamer(node, i);
            if (other != vr) {
                progress.settle(other);
                replan(other);
            }
        }
    }

    /** Settle every stream but {@code vr} at its old rate and re-plan it at the new shares, node by node. */
    private void replanAllStreams(VcpuRun vr) {
        Progress progress = sim.progress();
        for (int slot = 0; slot <= progress.stripedSlot(); slot++) {
            for (int i = 0, n = progress.streamerCount(slot); i < n; i++) {
                VcpuRun other = progress.streamer(slot, i);
                if (other != vr) {
                    progress.settle(other);
                    replan(other);
                }
            }
        }
    }

    private GuestThreadRun allocate() {
        if (freeCount > 0) {
            GuestThreadRun th = threads[free[--freeCount]];
            th.version++;
            th.on = null;
            th.last = null;
            th.locksHeld = 0;
            th.sliceUsed = 0;
            th.remaining = 0;
            th.memoryStream = false;
            th.kernel = false;
            return th;
        }
        if (threadCount == threads.length) {
            threads = Arrays.copyOf(threads, threadCount * 2);
        }
        GuestThreadRun th = new GuestThreadRun(threadCount);
        threads[threadCount++] = th;
        return th;
    }

    private void release(GuestThreadRun th) {
        th.program = null;
        th.where = GuestThreadRun.DEAD;
        if (freeCount == free.length) {
            free = Arrays.copyOf(free, free.length * 2);
        }
        free[freeCount++] = th.id;
    }
}
