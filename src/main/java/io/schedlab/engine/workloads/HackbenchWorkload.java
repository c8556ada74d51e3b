package io.schedlab.engine.workloads;

import io.schedlab.engine.params.ParameterSpec;
import io.schedlab.engine.params.Params;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * hackbench-like IPC (rt-tests / LTP hackbench.c, socket mode): {@code groups} groups of {@code fds} sender and
 * {@code fds} receiver threads; each sender writes {@code loops} rounds of one message to every receiver of its
 * group, each receiver reads {@code fds x loops} messages. A message is guest-kernel work: the writer's system
 * call ({@code sendUs}), a critical section under the receiver socket's spinlock ({@code lockUs}: queueing
 * the message and waking the reader, skb_queue_tail and the wait-queue lock with interrupts off), and on the
 * reader's side the same critical section and its system call ({@code recvUs}). A reader without a message
 * sleeps and each message wakes it, so every message can be a guest wake-up and an IPI; a writer whose reader's
 * buffer holds {@code bufferMessages} waits for space. Result: the elapsed time in seconds (hackbench's "Time:"),
 * lower is better.
 */
public final class HackbenchWorkload implements Workload {

    static final String TYPE = "hackbench";
    /** Bound of groups and of fds: at most 2 x 64 x 64 = 8192 threads, as many as the spinlock workload's 4096 x 2. */
    static final int MAX_SIDE = 64;
    static final int MAX_THREADS = 2 * MAX_SIDE * MAX_SIDE;
    private static final double NANOS_PER_US = 1e3;

    private final int groups;
    private final int fds;
    private final int loops;
    private final DurationDistribution send;
    private final DurationDistribution recv;
    private final DurationDistribution lock;
    private final int buffer;

    private WorkloadEnv env;
    private long startNanos;
    private long finishNanos = -1;
    private int receiversDone;
    private long messages;

    public HackbenchWorkload(int groups, int fds, int loops, DurationDistribution send, DurationDistribution recv,
            DurationDistribution lock, int buffer) {
        if (groups < 1 || fds < 1 || loops < 1 || buffer < 1 || 2L * groups * fds > MAX_THREADS) {
            throw new IllegalArgumentException("invalid hackbench parameters");
        }
        this.groups = groups;
        this.fds = fds;
        this.loops = loops;
        this.send = send;
        this.recv = recv;
        this.lock = lock;
        this.buffer = buffer;
    }

    static HackbenchWorkload fromParams(Params p) {
        double cv = p.getDouble("cv");
        return new HackbenchWorkload(p.getInt("groups"), p.getInt("fds"), p.getInt("loops"),
                DurationDistribution.lognormal(p.getDouble("sendUs"), cv),
                DurationDistribution.lognormal(p.getDouble("recvUs"), cv),
                DurationDistribution.lognormal(p.getDouble("lockUs"), cv), p.getInt("bufferMessages"));
    }

    /** Registry entry: type, description, unit and parameters with defaults, bounds and sources. */
    public static WorkloadDescriptor descriptor() {
        return new WorkloadDescriptor(TYPE,
                "hackbench-like IPC: groups of sender and receiver threads pass messages; each message wakes its"
                        + " reader (guest wake-ups and IPIs); the work is guest-kernel system calls with a"
                        + " spinlock section per message",
                "s", List.of(
                        ParameterSpec.integer("groups", 10, 1, MAX_SIDE, "groups",
                                "groups of senders and receivers (2 x groups x fds threads)",
                                "hackbench.c default num_groups = 10"),
                        ParameterSpec.integer("fds", 20, 1, MAX_SIDE, "threads",
                                "senders, and receivers, per group; each sender writes to every receiver of its group",
                                "hackbench.c default num_fds = 20"),
                        ParameterSpec.integer("loops", 100, 1, 1_000_000, "rounds",
                                "rounds per sender, one message to each receiver of its group per round",
                                "hackbench.c default loops = 100 (-l)"),
                        ParameterSpec.number("sendUs", 4, 0, 1e6, "us",
                                "mean guest-kernel work of one write() outside the socket lock",
                                "workload choice, UNVERIFIED: send + lock + receive (~10 us) is the order of the"
                                        + " 13 us of vCPU time per message of Wanpeng Li's 1-VM run (96 vCPUs x 28 s"
                                        + " / 2e8 messages, kvm list 2022-04-01; an upper bound, it includes idle)"),
                        ParameterSpec.number("recvUs", 4, 0, 1e6, "us",
                                "mean guest-kernel work of one read() outside the socket lock", "as sendUs"),
                        ParameterSpec.number("lockUs", 1, 0.001, 1e6, "us",
                                "mean critical section under the receiver socket's spinlock, per side of a message"
                                        + " (queue the message and wake the reader; dequeue)",
                                "workload choice, UNVERIFIED"),
                        ParameterSpec.number("cv", 0.5, 0, 10, "ratio",
                                "coefficient of variation of the three work times (lognormal; 0 = fixed)",
                                "workload choice"),
                        ParameterSpec.integer("bufferMessages", 256, 1, 1_000_000, "messages",
                                "messages a receiver's socket holds before its writers wait for space",
                                "UNVERIFIED: the order of net.core.wmem_default (212992 bytes) over the truesize of"
                                        + " a 100-byte message's skb (~0.8 KiB)")),
                HackbenchWorkload::fromParams);
    }

    @Override
    public void start(WorkloadEnv env) {
        this.env = env;
        startNanos = env.now();
        for (int g = 0; g < groups; g++) {
            for (int r = 0; r < fds; r++) {
                env.spawn(new Receiver(g * fds + r));
            }
            for (int s = 0; s < fds; s++) {
                env.spawn(new Sender(g));
            }
        }
    }

    @Override
    public boolean isFinite() {
        return true;
    }

    @Override
    public boolean isComplete() {
        return receiversDone == groups * fds;
    }

    /** Messages read so far. */
    public long messagesRead() {
        return messages;
    }

    @Override
    public WorkloadReport report(long elapsedNanos) {
        boolean done = isComplete();
        double seconds = (done ? finishNanos - startNanos : elapsedNanos) / 1e9;
        Map<String, Double> details = new LinkedHashMap<>();
        details.put("messages", (double) messages);
        details.put("messagesTotal", (double) groups * fds * fds * loops);
        details.put("threads", 2.0 * groups * fds);
        return new WorkloadReport("completion time", seconds, "s", false, done ? seconds : null, details);
    }

    /** Semaphore of receiver r's queued messages. */
    private static int data(int receiver) {
        return 2 * receiver;
    }

    /** Semaphore of receiver r's free buffer space. */
    private int space(int receiver) {
        return 2 * receiver + 1;
    }

    private long sample(DurationDistribution d) {
        return d.sampleNanos(env.random(), NANOS_PER_US);
    }

    /** One writer: per round, per receiver of its group: wait for space, write, lock, queue and wake, unlock. */
    private final class Sender implements GuestThread {
        private final int group;
        private int round;
        private int to;
        private int step;

        Sender(int group) {
            this.group = group;
        }

        @Override
        public Phase next(long now) {
            while (true) {
                int receiver = group * fds + to;
                switch (step) {
                    case 0 -> {
                        if (round == loops) {
                            step = 6;
                            return Phase.EXIT;
                        }
                        step = 1;
                        return new Phase.SemaphoreWait(space(receiver));
                    }
                    case 1 -> {
                        step = 2;
                        long work = sample(send);
                        if (work > 0) {
                            return new Phase.Compute(work, false, true);
                        }
                    }
                    case 2 -> {
                        step = 3;
                        return new Phase.Acquire(receiver);
                    }
                    case 3 -> {
                        step = 4;
                        return new Phase.Compute(Math.max(1, sample(lock)), false, true);
                    }
                    case 4 -> {
                        step = 5;
                        return new Phase.Release(receiver);
                    }
                    case 5 -> {
                        step = 0;
                        if (++to == fds) {
                            to = 0;
                            round++;
                        }
                        return new Phase.SemaphorePost(data(receiver));
                    }
                    default -> {
                        return Phase.EXIT;
                    }
                }
            }
        }
    }

    /** One reader: give its buffer its space, then per message: wait for one, lock, dequeue, unlock, read, free a slot. */
    private final class Receiver implements GuestThread {
        private final int index;
        private long left = (long) fds * loops;
        private int step = -1;

        Receiver(int index) {
            this.index = index;
        }

        @Override
        public Phase next(long now) {
            while (true) {
                switch (step) {
                    case -1 -> {
                        step = 0;
                        return new Phase.SemaphoreInit(space(index), buffer);
                    }
                    case 0 -> {
                        if (left == 0) {
                            receiversDone++;
                            finishNanos = Math.max(finishNanos, now);
                            step = 6;
                            return Phase.EXIT;
                        }
                        step = 1;
                        return new Phase.SemaphoreWait(data(index));
                    }
                    case 1 -> {
                        step = 2;
                        return new Phase.Acquire(index);
                    }
                    case 2 -> {
                        step = 3;
                        return new Phase.Compute(Math.max(1, sample(lock)), false, true);
                    }
                    case 3 -> {
                        step = 4;
                        return new Phase.Release(index);
                    }
                    case 4 -> {
                        step = 5;
                        messages++;
                        left--;
                        long work = sample(recv);
                        if (work > 0) {
                            return new Phase.Compute(work, false, true);
                        }
                    }
                    case 5 -> {
                        step = 0;
                        return new Phase.SemaphorePost(space(index));
                    }
                    default -> {
                        return Phase.EXIT;
                    }
                }
            }
        }
    }
}
