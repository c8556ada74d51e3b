package io.schedlab.engine.workloads;

import io.schedlab.engine.params.ParameterSpec;
import io.schedlab.engine.params.Params;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * A network server in the guest answering a client outside the VM, netperf-like: each of {@code connections}
 * connections keeps one transaction in flight. A request reaches the guest {@code roundTripUs} after the
 * previous response left it (the wire, the client and the host's network backend); the guest thread wakes,
 * handles it with a CPU burst (lognormal, mean {@code serviceUs}, cv {@code serviceCv}), answers, and blocks
 * until the next request. With {@code linkMbps} the requests share one link of that rate: a request reaches the
 * guest no sooner than the previous one plus its own wire time ({@code transactionBytes} x 8 / rate), so a
 * connection whose request is due while the link is busy waits behind it. Nothing else paces the client, so
 * throughput depends on how soon the hypervisor runs the woken vCPU: throughput = transactions x
 * {@code transactionBytes} x 8 bits / elapsed, in Mbit/s.
 * <p>
 * Measured as {@link InteractiveWorkload} measures wake-up latency: right after the round trip the thread runs
 * a 1 ns marker, which can only end once it is on a pCPU. Kept in HdrHistograms (2 significant digits): the
 * wake-up latency (request arrival to running) and the response time (request arrival to response sent).
 */
public final class RequestResponseWorkload implements Workload {

    static final String TYPE = "request-response";
    static final long MARKER_NANOS = 1;
    private static final Phase.Compute MARKER = new Phase.Compute(MARKER_NANOS, false);
    /** Highest time the histograms track: one hour. */
    private static final long MAX_TRACKED_NANOS = 3_600_000_000_000L;
    /** Bits per byte, for Mbit/s. */
    private static final double BITS_PER_BYTE = 8;

    private final int connections;
    private final long roundTripNanos;
    private final DurationDistribution service;
    private final long transactionBytes;
    private final long transactionsPerConnection;
    private final long workingSetKb;
    /** Wire time of one request on the link, ns (0: no link limit). */
    private final long wireNanos;
    /** When the link has delivered the last request queued on it. */
    private long linkFreeAt = Long.MIN_VALUE;
    private final Histogram wakeLatency = new Histogram(1, MAX_TRACKED_NANOS, 2);
    private final Histogram responseTime = new Histogram(1, MAX_TRACKED_NANOS, 2);

    private long transactions;
    private int spawned;
    private int exited;
    private long startNanos;
    private long lastExitNanos;

    /**
     * @param connections transactions in flight, one guest thread each
     * @param roundTripNanos from a response leaving the guest to the next request reaching it
     * @param service CPU burst per request, in microseconds
     * @param transactionBytes payload counted per transaction
     * @param transactionsPerConnection transactions before a connection closes; 0 = endless
     * @param workingSetKb what a burst keeps hot in the caches
     * @param linkMbps rate of the link the requests share, Mbit/s; 0 = no limit
     */
    public RequestResponseWorkload(int connections, long roundTripNanos, DurationDistribution service,
            long transactionBytes, long transactionsPerConnection, long workingSetKb, double linkMbps) {
        if (connections < 1 || roundTripNanos < 0 || transactionBytes < 1 || transactionsPerConnection < 0
                || workingSetKb < 0 || !(linkMbps >= 0)) {
            throw new IllegalArgumentException("invalid request-response parameters");
        }
        this.connections = connections;
        this.roundTripNanos = roundTripNanos;
        this.service = service;
        this.transactionBytes = transactionBytes;
        this.transactionsPerConnection = transactionsPerConnection;
        this.workingSetKb = workingSetKb;
        // bits / (Mbit/s) = microseconds; x 1e3 = nanoseconds
        this.wireNanos = linkMbps == 0 ? 0 : Math.round(transactionBytes * BITS_PER_BYTE * 1e3 / linkMbps);
    }

    static RequestResponseWorkload fromParams(Params p) {
        return new RequestResponseWorkload(p.getInt("connections"), Math.round(p.getDouble("roundTripUs") * 1e3),
                DurationDistribution.lognormal(p.getDouble("serviceUs"), p.getDouble("serviceCv")),
                p.getLong("transactionBytes"), p.getLong("transactions"), p.getLong("workingSetKb"),
                p.getDouble("linkMbps"));
    }

    /** Registry entry: type, description, unit and parameters with defaults, bounds and sources. */
    public static WorkloadDescriptor descriptor() {
        return new WorkloadDescriptor(TYPE,
                "request-response: a client outside the VM sends the next request a round trip after each"
                        + " response; the guest wakes, serves it in a short burst; reports throughput in Mbit/s",
                "Mbit/s", List.of(
                        ParameterSpec.integer("connections", 1, 1, 4096, "connections",
                                "transactions in flight, each served by its own guest thread",
                                "netperf TCP_RR: one transaction in flight per connection"),
                        ParameterSpec.number("roundTripUs", 50, 0, 1e7, "us",
                                "from a response leaving the guest to the next request reaching it (wire, client,"
                                        + " host network backend)",
                                "workload choice, UNVERIFIED: a gigabit LAN round trip through the host's backend,"
                                        + " tens of microseconds"),
                        ParameterSpec.number("serviceUs", 20, 0.001, 1e9, "us",
                                "mean guest CPU time to handle one request and send its response, lognormal",
                                "workload choice, UNVERIFIED: a guest network stack's receive and send path"),
                        ParameterSpec.number("serviceCv", 0, 0, 10, "ratio",
                                "coefficient of variation of the service burst (0 = fixed)", "workload choice"),
                        ParameterSpec.integer("transactionBytes", 16_384, 1, 1L << 30, "bytes",
                                "payload counted per transaction for the throughput",
                                "netperf: a TCP_STREAM send is the socket send buffer size (Linux tcp_wmem"
                                        + " default 16 KiB); TCP_RR requests are 1 byte"),
                        ParameterSpec.integer("transactions", 0, 0, 1_000_000_000L, "transactions",
                                "transactions per connection before it closes; 0 = endless", "workload choice"),
                        ParameterSpec.integer("workingSetKb", InteractiveWorkload.DEFAULT_WORKING_SET_KB, 0,
                                1_048_576, "KiB", "What a burst keeps hot in the caches (and refills after another"
                                        + " vCPU evicted it).",
                                "assumption, UNVERIFIED: as the interactive workload's burst"),
                        ParameterSpec.number("linkMbps", 0, 0, 1e6, "Mbit/s",
                                "rate of the link that delivers the requests, shared by all connections; 0 = no"
                                        + " limit", "workload choice (1000 for Gigabit Ethernet, IEEE 802.3ab)")),
                RequestResponseWorkload::fromParams);
    }

    @Override
    public long workingSetKb() {
        return workingSetKb;
    }

    @Override
    public void start(WorkloadEnv env) {
        startNanos = env.now();
        for (int c = 0; c < connections; c++) {
            spawned++;
            env.spawn(new Connection(env));
        }
    }

    @Override
    public boolean isFinite() {
        return transactionsPerConnection > 0;
    }

    @Override
    public boolean isComplete() {
        return isFinite() && spawned > 0 && exited == spawned;
    }

    /** Transactions completed so far. */
    public long transactions() {
        return transactions;
    }

    /** Wake-up latency (request arrival to running) at a percentile (0..100), in nanoseconds. */
    public long wakeLatencyNanosAt(double percentile) {
        return wakeLatency.getValueAtPercentile(percentile);
    }

    /** Throughput in Mbit/s over {@code seconds}. */
    double megabitsPerSecond(double seconds) {
        return seconds > 0 ? transactions * transactionBytes * BITS_PER_BYTE / seconds / 1e6 : 0;
    }

    @Override
    public WorkloadReport report(long elapsedNanos) {
        boolean done = isComplete();
        double seconds = (done ? lastExitNanos - startNanos : elapsedNanos) / 1e9;
        Map<String, Double> details = new LinkedHashMap<>();
        details.put("transactions", (double) transactions);
        details.put("transactionsPerSecond", seconds > 0 ? transactions / seconds : 0.0);
        details.put("wakeP50Us", micros(wakeLatency.getValueAtPercentile(50)));
        details.put("wakeP99Us", micros(wakeLatency.getValueAtPercentile(99)));
        details.put("responseMeanUs", responseTime.getTotalCount() == 0 ? 0.0 : responseTime.getMean() / 1e3);
        details.put("responseP50Us", micros(responseTime.getValueAtPercentile(50)));
        details.put("responseP99Us", micros(responseTime.getValueAtPercentile(99)));
        return new WorkloadReport("throughput", megabitsPerSecond(seconds), "Mbit/s", true,
                done ? seconds : null, details);
    }

    private static double micros(long nanos) {
        return nanos / 1e3;
    }

    /** round trip -> marker -> service burst -> round trip ...; the marker's end is the wake-up. */
    private final class Connection implements GuestThread {
        private final WorkloadEnv env;
        private int step;
        private long arrival;
        private long done;

        Connection(WorkloadEnv env) {
            this.env = env;
        }

        @Override
        public Phase next(long now) {
            switch (step) {
                case 0 -> {
                    if (transactionsPerConnection > 0 && done >= transactionsPerConnection) {
                        exited++;
                        lastExitNanos = Math.max(lastExitNanos, now);
                        step = 3;
                        return Phase.EXIT;
                    }
                    arrival = now + roundTripNanos;
                    if (wireNanos > 0) {
                        arrival = Math.max(arrival, linkFreeAt + wireNanos);
                        linkFreeAt = arrival;
                    }
                    if (arrival == now) {
                        step = 2;
                        return MARKER;
                    }
                    step = 1;
                    return new Phase.Sleep(arrival - now);
                }
                case 1 -> {
                    step = 2;
                    return MARKER;
                }
                case 2 -> {
                    wakeLatency.recordValue(Math.min(Math.max(0, now - arrival - MARKER_NANOS), MAX_TRACKED_NANOS));
                    step = 4;
                    long work = Math.max(1, service.sampleNanos(env.random(), 1e3) - MARKER_NANOS);
                    return new Phase.Compute(work, false);
                }
                case 4 -> {
                    responseTime.recordValue(Math.min(Math.max(0, now - arrival), MAX_TRACKED_NANOS));
                    transactions++;
                    done++;
                    step = 0;
                    return next(now);
                }
                default -> {
                    return Phase.EXIT;
                }
            }
        }
    }
}
