package io.schedlab.engine.workloads;

import io.schedlab.engine.params.ParameterSpec;
import io.schedlab.engine.params.Params;
import io.schedlab.engine.workloads.WorkloadDescriptor;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;

/**
 * Replays recorded per-vCPU activity: the user supplies CSV text inline ({@code csv} parameter) with the
 * header {@code vcpu,run_us,sleep_us}; each row is one burst: run {@code run_us} of CPU time, then sleep
 * {@code sleep_us}. Rows of one vCPU are replayed in file order by one guest thread per distinct vCPU id
 * (ids beyond the VM's vCPU count are still replayed; the guest time-shares the extra threads). Once
 * ({@code loop = false}: the result is the replay time in seconds, compared with the ideal time on
 * dedicated CPUs) or in a loop (result: run bursts completed per second).
 */
public final class TraceWorkload implements Workload {

    static final String TYPE = "trace";
    /** Longest accepted CSV text: 256 KiB, about 20k rows. */
    public static final int MAX_CSV_CHARS = 262_144;
    static final int MAX_VCPU_ID = 4095;
    static final long MAX_MICROS = 3_600_000_000L;
    static final List<String> HEADER = List.of("vcpu", "run_us", "sleep_us");
    private static final String DEFAULT_CSV = "vcpu,run_us,sleep_us\n0,1000,1000\n";

    private final long[][] bursts;
    private final boolean loop;
    private final long idealNanos;

    private long startNanos;
    private long lastExitNanos;
    private int exited;
    private long runBurstsDone;

    /** {@code bursts[t]} holds (run ns, sleep ns) pairs for thread t, flattened. */
    TraceWorkload(long[][] bursts, boolean loop) {
        this.bursts = bursts;
        this.loop = loop;
        long ideal = 0;
        for (long[] b : bursts) {
            long sum = 0;
            for (long n : b) {
                sum += n;
            }
            ideal = Math.max(ideal, sum);
        }
        this.idealNanos = ideal;
    }

    /** Parse and validate CSV text; errors name the data row. */
    public static TraceWorkload parse(String csv, boolean loop) {
        return new TraceWorkload(parseBursts(csv), loop);
    }

    static TraceWorkload fromParams(Params p) {
        return parse(p.getString("csv"), p.getBoolean("loop"));
    }

    /** Registry entry: type, description, unit and parameters with defaults, bounds and sources. */
    public static WorkloadDescriptor descriptor() {
        return new WorkloadDescriptor(TYPE,
                "replay per-vCPU run/sleep bursts from inline CSV (header vcpu,run_us,sleep_us); loop=true reports bursts/s",
                "s",
                List.of(ParameterSpec.text("csv", DEFAULT_CSV, MAX_CSV_CHARS, "CSV text",
                        "rows vcpu,run_us,sleep_us (header required); one guest thread per vCPU id, rows in order",
                        "SchedLab trace format; vcpu 0-" + MAX_VCPU_ID + ", times 0-" + MAX_MICROS + " us"),
                        ParameterSpec.bool("loop", false,
                                "replay forever (result: run bursts/s) instead of once (result: replay seconds)",
                                "workload choice")),
                TraceWorkload::fromParams);
    }

    static long[][] parseBursts(String csv) {
        if (csv == null || csv.isBlank()) {
            throw new TraceCsvException(0, "empty; expected the header " + String.join(",", HEADER));
        }
        if (csv.length() > MAX_CSV_CHARS) {
            throw new TraceCsvException(0, "too long: " + csv.length() + " characters, limit " + MAX_CSV_CHARS);
        }
        CSVFormat format = CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).setTrim(true)
                .setIgnoreEmptyLines(true).setIgnoreSurroundingSpaces(true).get();
        TreeMap<Integer, List<long[]>> byVcpu = new TreeMap<>();
        try (CSVParser parser = CSVParser.parse(new StringReader(csv), format)) {
            List<String> header = parser.getHeaderNames();
            if (!header.equals(HEADER)) {
                throw new TraceCsvException(0, "header must be exactly " + String.join(",", HEADER) + ", got "
                        + String.join(",", header));
            }
            int row = 0;
            for (CSVRecord record : parser) {
                row++;
                if (record.size() != HEADER.size()) {
                    throw new TraceCsvException(row, "expected 3 columns (vcpu,run_us,sleep_us), got " + record.size());
                }
                int vcpu = (int) number(record, row, "vcpu", MAX_VCPU_ID);
                long run = number(record, row, "run_us", MAX_MICROS);
                long sleep = number(record, row, "sleep_us", MAX_MICROS);
                if (run == 0 && sleep == 0) {
                    throw new TraceCsvException(row, "run_us and sleep_us are both 0");
                }
                byVcpu.computeIfAbsent(vcpu, k -> new ArrayList<>()).add(new long[] {run * 1000, sleep * 1000});
            }
            if (row == 0) {
                throw new TraceCsvException(0, "no data rows after the header");
            }
        } catch (TraceCsvException e) {
            throw e;
        } catch (IOException | UncheckedIOException | IllegalStateException | IllegalArgumentException e) {
            throw new TraceCsvException(0, "not valid CSV: " + e.getMessage());
        }
        long[][] out = new long[byVcpu.size()][];
        int t = 0;
        for (List<long[]> rows : byVcpu.values()) {
            long[] flat = new long[rows.size() * 2];
            for (int i = 0; i < rows.size(); i++) {
                flat[2 * i] = rows.get(i)[0];
                flat[2 * i + 1] = rows.get(i)[1];
            }
            out[t++] = flat;
        }
        return out;
    }

    private static long number(CSVRecord record, int row, String column, long max) {
        String text = record.get(column);
        long value;
        try {
            value = Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new TraceCsvException(row, column + " '" + text + "' is not a whole number");
        }
        if (value < 0 || value > max) {
            throw new TraceCsvException(row, column + " " + value + " is out of range 0.." + max);
        }
        return value;
    }

    @Override
    public void start(WorkloadEnv env) {
        startNanos = env.now();
        for (long[] b : bursts) {
            env.spawn(new Replayer(b));
        }
    }

    @Override
    public boolean isFinite() {
        return !loop;
    }

    @Override
    public boolean isComplete() {
        return !loop && exited == bursts.length;
    }

    /** Threads (distinct vCPU ids) in the trace. */
    public int threads() {
        return bursts.length;
    }

    /** The replay time on dedicated, never-preempted CPUs: the longest per-vCPU sum of run + sleep. */
    public long idealNanos() {
        return idealNanos;
    }

    @Override
    public WorkloadReport report(long elapsedNanos) {
        boolean done = isComplete();
        Map<String, Double> details = new LinkedHashMap<>();
        details.put("threads", (double) bursts.length);
        details.put("runBurstsDone", (double) runBurstsDone);
        details.put("idealSeconds", idealNanos / 1e9);
        if (loop) {
            double seconds = elapsedNanos / 1e9;
            return new WorkloadReport("run bursts per second", seconds > 0 ? runBurstsDone / seconds : 0, "bursts/s",
                    true, null, details);
        }
        double seconds = (done ? lastExitNanos - startNanos : elapsedNanos) / 1e9;
        details.put("stretch", idealNanos > 0 ? seconds / (idealNanos / 1e9) : 0);
        details.put("complete", done ? 1.0 : 0.0);
        return new WorkloadReport("replay time", seconds, "s", false, done ? seconds : null, details);
    }

    /** Replays one vCPU's rows: run, sleep, next row. */
    private final class Replayer implements GuestThread {
        private final long[] flat;
        private int position;
        private boolean exitedOnce;
        private boolean running;

        Replayer(long[] flat) {
            this.flat = flat;
        }

        @Override
        public Phase next(long now) {
            if (running) {
                running = false;
                runBurstsDone++;
            }
            while (true) {
                if (position == flat.length) {
                    if (!loop) {
                        if (!exitedOnce) {
                            exitedOnce = true;
                            exited++;
                            lastExitNanos = Math.max(lastExitNanos, now);
                        }
                        return Phase.EXIT;
                    }
                    position = 0;
                }
                long nanos = flat[position];
                boolean run = position % 2 == 0;
                position++;
                if (nanos > 0) {
                    if (run) {
                        running = true;
                        return new Phase.Compute(nanos, false);
                    }
                    return new Phase.Sleep(nanos);
                }
            }
        }
    }
}
