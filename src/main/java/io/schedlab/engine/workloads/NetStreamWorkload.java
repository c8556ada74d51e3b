package io.schedlab.engine.workloads;

import io.schedlab.engine.params.ParameterSpec;
import io.schedlab.engine.params.Params;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One end of a TCP stream between two guests over virtio-net with vhost (uperf's strburst profile: each of
 * {@code connections} connections streams {@code chunkBytes} chunks). The sending guest's threads write a chunk
 * ({@code sendUs} of guest kernel time) and kick the connection's queue (connection c uses queue c mod
 * {@code queues}); the host's vhost worker and kworker for that queue ({@link VhostNetWorkload}) move and deliver
 * it; the receiving guest's threads read it ({@code receiveUs}) and acknowledge, which frees a chunk of the
 * sender's window. A connection's window of {@code windowBytes} bounds its chunks in flight, so the throughput
 * waits on how soon the host runs the worker and the kworker. The receiver reports Gbit/s.
 */
public final class NetStreamWorkload implements EndlessWorkload {

    static final String TYPE = "net-stream";
    static final String SENDER = "sender";
    static final String RECEIVER = "receiver";
    private static final double BITS_PER_BYTE = 8;

    private final boolean sender;
    private final int connections;
    private final int queues;
    private final long chunkBytes;
    private final int windowChunks;
    private final long sendNanos;
    private final long receiveNanos;
    private long chunks;

    public NetStreamWorkload(boolean sender, int connections, int queues, long chunkBytes, long windowBytes,
            long sendNanos, long receiveNanos) {
        if (connections < 1 || queues < 1 || queues > VirtioNetQueues.MAX_QUEUES || chunkBytes < 1
                || windowBytes < chunkBytes || sendNanos < 1 || receiveNanos < 1) {
            throw new IllegalArgumentException("invalid net-stream parameters");
        }
        this.sender = sender;
        this.connections = connections;
        this.queues = queues;
        this.chunkBytes = chunkBytes;
        this.windowChunks = (int) Math.min(Integer.MAX_VALUE, windowBytes / chunkBytes);
        this.sendNanos = sendNanos;
        this.receiveNanos = receiveNanos;
    }

    static NetStreamWorkload fromParams(Params p) {
        return new NetStreamWorkload(SENDER.equals(p.getString("role")), p.getInt("connections"), p.getInt("queues"),
                p.getLong("chunkBytes"), p.getLong("windowBytes"), Math.round(p.getDouble("sendUs") * 1e3),
                Math.round(p.getDouble("receiveUs") * 1e3));
    }

    /** Registry entry: type, description, unit and parameters with defaults, bounds and sources. */
    public static WorkloadDescriptor descriptor() {
        return new WorkloadDescriptor(TYPE,
                "net-stream: one end (sender or receiver) of uperf-like TCP streams between two guests through"
                        + " vhost-net host threads (a host thread group running vhost-net serves both guests);"
                        + " the receiver reports Gbit/s", "Gbit/s", List.of(
                        ParameterSpec.choice("role", RECEIVER, List.of(SENDER, RECEIVER),
                                "which end this guest runs", "uperf: the server sends, the client reads (str-read)"),
                        ParameterSpec.integer("connections", 50, 1, 4096, "connections",
                                "parallel connections, one guest thread each",
                                "LKML 2023-11-16 (EEVDF/vhost regression): uperf strburst, nprocs 50"),
                        ParameterSpec.integer("queues", 4, 1, VirtioNetQueues.MAX_QUEUES, "queues",
                                "virtio-net queue pairs; connection c uses queue c mod queues",
                                "LKML 2023-11-16: <driver name=\"vhost\" queues=\"4\"/>"),
                        ParameterSpec.integer("chunkBytes", 30_720, 1, 1L << 30, "bytes",
                                "bytes per write and per read", "LKML 2023-11-16: uperf read flowop size=30k"),
                        ParameterSpec.integer("windowBytes", 131_072, 1, 1L << 34, "bytes",
                                "bytes a connection may have unacknowledged (at least one chunk)",
                                "Linux net.ipv4.tcp_rmem default 131072 (net/ipv4/tcp.c tcp_init)"),
                        ParameterSpec.number("sendUs", 2.5, 0.001, 1e6, "us",
                                "the sender's guest kernel time per chunk (write, virtio-net xmit)",
                                "workload choice, UNVERIFIED: with receiveUs, ~1.6x vhost-net's copyUs per chunk as"
                                        + " the source's perf table gives the guests' vCPU threads ~1.6x the vhost"
                                        + " threads' CPU time (~45 s against 27.7 s)"),
                        ParameterSpec.number("receiveUs", 2.5, 0.001, 1e6, "us",
                                "the receiver's guest kernel time per chunk (virtio-net receive, read, ACK)",
                                "workload choice, UNVERIFIED: as sendUs")),
                NetStreamWorkload::fromParams);
    }

    @Override
    public void start(WorkloadEnv env) {
        for (int c = 0; c < connections; c++) {
            int q = c % queues;
            env.spawn(sender ? sender(q) : receiver(q));
        }
    }

    /** open the window -> (wait for a free chunk -> write it -> kick the queue) ... */
    private GuestThread sender(int q) {
        return new SemaphoreRelay(new Phase.SemaphoreInit(VirtioNetQueues.window(q), windowChunks),
                VirtioNetQueues.window(q), sendNanos, VirtioNetQueues.kick(q), () -> chunks++);
    }

    /** wait for a delivered chunk -> read it -> acknowledge (a chunk of window back to the sender) ... */
    private GuestThread receiver(int q) {
        return new SemaphoreRelay(null, VirtioNetQueues.delivered(q), receiveNanos, VirtioNetQueues.window(q),
                () -> chunks++);
    }

    /** Chunks written (sender) or read (receiver) so far. */
    public long chunks() {
        return chunks;
    }

    @Override
    public WorkloadReport report(long elapsedNanos) {
        double seconds = elapsedNanos / 1e9;
        Map<String, Double> details = new LinkedHashMap<>();
        details.put("chunks", (double) chunks);
        details.put("chunksPerSecond", seconds > 0 ? chunks / seconds : 0.0);
        double gbps = seconds > 0 ? chunks * chunkBytes * BITS_PER_BYTE / seconds / 1e9 : 0;
        return new WorkloadReport(sender ? "sent" : "throughput", gbps, "Gbit/s", true, null, details);
    }
}
