package io.schedlab.reports;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;

/**
 * Which vCPU ran on which pCPU during a window of simulated time, from an experiment's trace CSV
 * ({@code time_ns,pcpu,event,vm,vcpu}): a {@code switch} record starts the named vCPU on its pCPU
 * (an empty vm is idle) and ends what ran there; {@code migrate} records are kept as marks. The
 * file is streamed; at most {@code maxSegments} segments and marks are kept ({@code truncated} says so).
 */
public record TraceTimeline(long fromNanos, long toNanos, List<Segment> segments, List<Mark> migrations,
        boolean truncated) {

    /** A vCPU running on a pCPU from {@code startNanos} to {@code endNanos} (clipped to the window). */
    public record Segment(int pcpu, long startNanos, long endNanos, String vm, int vcpu) {
    }

    /** A migration of a vCPU to {@code pcpu} at {@code timeNanos}. */
    public record Mark(long timeNanos, int pcpu, String vm, int vcpu) {
    }

    public static TraceTimeline read(Path csv, long fromNanos, long toNanos, int maxSegments) {
        List<Segment> segments = new ArrayList<>();
        List<Mark> marks = new ArrayList<>();
        Map<Integer, Running> running = new HashMap<>();
        boolean truncated = false;
        long last = fromNanos;
        boolean beyond = false; // the trace goes on past the window: what still runs, runs to its end
        try (Reader in = Files.newBufferedReader(csv, StandardCharsets.UTF_8);
                CSVParser parser = CSVParser.parse(in, CSVFormat.RFC4180.builder().setHeader().setSkipHeaderRecord(true).get())) {
            for (CSVRecord r : parser) {
                long t = Long.parseLong(r.get("time_ns"));
                if (t > toNanos) {
                    beyond = true;
                    break;
                }
                last = t;
                String event = r.get("event");
                if (r.get("pcpu").isEmpty()) {
                    continue; // no pCPU (an empty cell: vm-start, shutdown): nothing to draw
                }
                int pcpu = Integer.parseInt(r.get("pcpu"));
                if (event.equals("switch")) {
                    Running ended = running.remove(pcpu);
                    if (ended != null && t > fromNanos && !truncated) {
                        truncated = !add(segments, maxSegments, ended.segment(pcpu, fromNanos, t));
                    }
                    String vm = r.get("vm");
                    if (!vm.isEmpty()) {
                        running.put(pcpu, new Running(t, vm, Integer.parseInt(r.get("vcpu"))));
                    }
                } else if (event.equals("migrate") && t >= fromNanos && !truncated) {
                    truncated = marks.size() >= maxSegments;
                    if (!truncated) {
                        marks.add(new Mark(t, pcpu, r.get("vm"), Integer.parseInt(r.get("vcpu"))));
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        long end = beyond ? toNanos : Math.max(fromNanos, Math.min(toNanos, last));
        for (Map.Entry<Integer, Running> open : running.entrySet()) {
            if (end > fromNanos && !truncated) {
                truncated = !add(segments, maxSegments, open.getValue().segment(open.getKey(), fromNanos, end));
            }
        }
        return new TraceTimeline(fromNanos, toNanos, segments, marks, truncated);
    }

    private static boolean add(List<Segment> segments, int max, Segment s) {
        if (s.endNanos() <= s.startNanos()) {
            return true; // nothing of it in the window
        }
        if (segments.size() >= max) {
            return false;
        }
        segments.add(s);
        return true;
    }

    /** What runs on a pCPU since {@code since}. */
    private record Running(long since, String vm, int vcpu) {
        Segment segment(int pcpu, long from, long to) {
            return new Segment(pcpu, Math.max(since, from), to, vm, vcpu);
        }
    }
}
