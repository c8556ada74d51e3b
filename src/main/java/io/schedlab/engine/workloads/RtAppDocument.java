package io.schedlab.engine.workloads;

import io.schedlab.engine.workloads.RtAppTask.RtAppPhase;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * An rt-app workload description (scheduler-tools/rt-app doc/tutorial.txt; keys read as
 * src/rt-app_parse_config.c parse_task_data, parse_task_phase_data and parse_task_event_data read them), reduced to
 * what the model runs: run, runtime, sleep, timer, lock and unlock events, phase and task loops, instances, delay
 * and SCHED_OTHER. Everything else is refused with the JSON pointer of its key; sizes are bounded.
 */
record RtAppDocument(List<RtAppTask> tasks, long durationNanos, int sharedTimers, int threads) {

    // Limits (product choices, not rt-app's: it has none): they bound the parse, the threads a run carries and the
    // result's per-thread details.
    /** Largest document: 256 KiB of JSON, as large as the trace workload's CSV. */
    static final int MAX_DOCUMENT_BYTES = 262_144;
    static final int MAX_TASKS = 256;
    /** Most threads over all tasks (instances summed): each reports its own figures. */
    static final int MAX_THREADS = 256;
    static final int MAX_PHASES = 256;
    /** Most events over the whole document. */
    static final int MAX_EVENTS = 16_384;
    static final long MAX_LOOP = 1_000_000_000L;
    /** Longest run, sleep, timer period or delay: one hour, in us (rt-app's unit). */
    static final long MAX_MICROS = 3_600_000_000L;
    /** Longest global duration, in s. */
    static final long MAX_DURATION_SECONDS = 31_536_000L;
    static final int MAX_NAME_CHARS = 64;

    private static final JsonMapper MAPPER = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();
    /** rt-app's event names (rt-app_parse_config.c events[]); a key starting with one is that event. */
    private static final List<String> EVENT_PREFIXES = List.of("lock", "unlock", "wait", "signal", "broad", "sync",
            "sleep", "runtime", "run", "timer", "suspend", "resume", "memrun", "mem", "iorun", "yield", "barrier",
            "fork", "sem_post", "sem_wait");
    /** Global keys that only steer rt-app's logging or calibration: accepted, without effect on the schedule. */
    private static final Set<String> GLOBAL_NO_EFFECT = Set.of("calibration", "logdir", "log_basename", "log_size",
            "ftrace", "gnuplot", "lock_pages", "io_device", "mem_buffer_size", "cumulative_slack", "pi_enabled");
    static final String OTHER = "SCHED_OTHER";

    /** Parse a document given as a JSON object (a Map, as the API reads it) or as a string holding one. */
    static RtAppDocument parse(Object json) {
        return new Parser(json instanceof String ? Reading.STRING : Reading.OBJECT).document(json);
    }

    private enum Reading { OBJECT, STRING }

    /** One parse: resolves mutex and timer names to ids in order of first mention. */
    static final class Parser {
        private final boolean pointInto;
        private final Map<String, Integer> mutexes = new LinkedHashMap<>();
        private final Map<String, Integer> sharedTimers = new LinkedHashMap<>();
        /** Shared timers some event sets to absolute mode (rt-app clears the relative flag for every user). */
        private final Set<String> absoluteShared = new java.util.HashSet<>();
        private final List<PendingTimer> timers = new ArrayList<>();
        private int events;

        Parser(Reading reading) {
            this.pointInto = reading == Reading.OBJECT;
        }

        RtAppException refuse(String pointer, String message) {
            return new RtAppException(pointer, pointInto, message);
        }

        RtAppDocument document(Object json) {
            JsonNode root = read(json);
            if (!root.isObject()) {
                throw refuse("", "must be a JSON object with a tasks object (rt-app's file layout)");
            }
            long duration = -1;
            JsonNode tasksNode = null;
            for (Map.Entry<String, JsonNode> e : root.properties()) {
                String at = "/" + escape(e.getKey());
                switch (e.getKey()) {
                    case "tasks" -> tasksNode = e.getValue();
                    case "global" -> duration = global(at, e.getValue());
                    case "resources" -> resources(at, e.getValue());
                    default -> throw refuse(at, "not an rt-app top-level key the model maps (tasks, global, resources)");
                }
            }
            if (tasksNode == null || !tasksNode.isObject() || tasksNode.isEmpty()) {
                throw refuse("/tasks", "required: an object of at least one task");
            }
            if (tasksNode.size() > MAX_TASKS) {
                throw refuse("/tasks", tasksNode.size() + " tasks; limit " + MAX_TASKS);
            }
            List<RtAppTask> tasks = new ArrayList<>();
            Set<String> threadNames = new java.util.HashSet<>();
            int threads = 0;
            for (Map.Entry<String, JsonNode> e : tasksNode.properties()) {
                RtAppTask task = new RtAppTaskParser(this, e.getKey(), "/tasks/" + escape(e.getKey()))
                        .task(e.getValue());
                threads += task.instances();
                if (threads > MAX_THREADS) {
                    throw refuse("/tasks/" + escape(e.getKey()) + "/instance", "more than " + MAX_THREADS
                            + " threads over all tasks (instances summed); limit " + MAX_THREADS);
                }
                for (int i = 0; i < task.instances(); i++) {
                    if (!threadNames.add(task.threadName(i))) {
                        throw refuse("/tasks/" + escape(e.getKey()), "its thread " + task.threadName(i)
                                + " has the name of another task's thread; rename one");
                    }
                }
                tasks.add(task);
            }
            return new RtAppDocument(resolveTimers(tasks), duration < 0 ? -1 : duration * 1_000_000_000L,
                    sharedTimers.size(), threads);
        }

        private JsonNode read(Object json) {
            try {
                if (json instanceof String text) {
                    if (text.length() > MAX_DOCUMENT_BYTES) {
                        throw refuse("", text.length() + " characters; limit " + MAX_DOCUMENT_BYTES);
                    }
                    return MAPPER.readTree(text);
                }
                JsonNode node = MAPPER.valueToTree(json);
                int bytes = MAPPER.writeValueAsBytes(node).length;
                if (bytes > MAX_DOCUMENT_BYTES) {
                    throw refuse("", bytes + " bytes of JSON; limit " + MAX_DOCUMENT_BYTES);
                }
                return node;
            } catch (JacksonException e) {
                throw refuse("", "not valid JSON: " + e.getOriginalMessage());
            }
        }

        private long global(String at, JsonNode global) {
            if (!global.isObject()) {
                throw refuse(at, "must be an object");
            }
            long duration = -1;
            for (Map.Entry<String, JsonNode> e : global.properties()) {
                String key = e.getKey();
                String kat = at + "/" + escape(key);
                if (key.equals("duration")) {
                    duration = integer(kat, e.getValue(), -1, MAX_DURATION_SECONDS);
                    if (duration == 0) {
                        throw refuse(kat, "must be -1 (until every thread ends) or 1.." + MAX_DURATION_SECONDS + " s");
                    }
                } else if (key.equals("default_policy")) {
                    policy(kat, e.getValue());
                } else if (!GLOBAL_NO_EFFECT.contains(key)) {
                    throw refuse(kat, "not a global key the model maps (duration, default_policy; accepted without"
                            + " effect: " + String.join(", ", new java.util.TreeSet<>(GLOBAL_NO_EFFECT)) + ")");
                }
            }
            return duration;
        }

        /** The legacy resources object (rt-app creates resources on first use): mutexes and timers only. */
        private void resources(String at, JsonNode resources) {
            if (!resources.isObject()) {
                throw refuse(at, "must be an object");
            }
            for (Map.Entry<String, JsonNode> e : resources.properties()) {
                String rat = at + "/" + escape(e.getKey());
                JsonNode type = e.getValue().get("type");
                if (type == null || !type.isString() || !Set.of("mutex", "timer").contains(type.stringValue())) {
                    throw refuse(rat + "/type", "the model has mutex and timer resources only");
                }
            }
        }

        void policy(String at, JsonNode value) {
            if (!value.isString() || !value.stringValue().equals(OTHER)) {
                throw refuse(at, "the guest kernel time-shares every thread alike (SCHED_OTHER, nice 0);"
                        + " it has no real-time, deadline, batch or idle class: only \"" + OTHER + "\"");
            }
        }

        void priority(String at, JsonNode value) {
            if (integer(at, value, Integer.MIN_VALUE, Integer.MAX_VALUE) != 0) {
                throw refuse(at, "the guest kernel has no priorities or nice levels: only 0");
            }
        }

        long integer(String at, JsonNode value, long min, long max) {
            if (!value.isIntegralNumber() || !value.canConvertToLong()) {
                throw refuse(at, "must be an integer");
            }
            long v = value.longValue();
            if (v < min || v > max) {
                throw refuse(at, v + " is out of range " + min + ".." + max);
            }
            return v;
        }

        void countEvent(String at) {
            if (++events > MAX_EVENTS) {
                throw refuse(at, "more than " + MAX_EVENTS + " events in the document; limit " + MAX_EVENTS);
            }
        }

        int mutex(String name) {
            return mutexes.computeIfAbsent(name, k -> mutexes.size());
        }

        /** A timer event waiting for its mode to be known (a shared timer's mode is set by any of its events). */
        RtAppEvent timer(String task, String ref, long periodNanos, boolean absolute, Map<String, Integer> unique) {
            PendingTimer t;
            if (ref.startsWith("unique")) {
                t = new PendingTimer(unique.computeIfAbsent(ref, k -> unique.size()), true, periodNanos, absolute,
                        task + "\u0000" + ref);
            } else {
                if (absolute) {
                    absoluteShared.add(ref);
                }
                t = new PendingTimer(sharedTimers.computeIfAbsent(ref, k -> sharedTimers.size()), false, periodNanos,
                        absolute, ref);
            }
            timers.add(t);
            return t;
        }

        private List<RtAppTask> resolveTimers(List<RtAppTask> tasks) {
            Set<String> absoluteUnique = new java.util.HashSet<>();
            for (PendingTimer t : timers) {
                if (t.unique && t.absolute) {
                    absoluteUnique.add(t.key);
                }
            }
            List<RtAppTask> out = new ArrayList<>();
            for (RtAppTask task : tasks) {
                List<RtAppPhase> phases = new ArrayList<>();
                for (RtAppPhase phase : task.phases()) {
                    List<RtAppEvent> events = new ArrayList<>();
                    for (RtAppEvent e : phase.events()) {
                        if (e instanceof PendingTimer t) {
                            boolean absolute = t.unique ? absoluteUnique.contains(t.key) : absoluteShared.contains(t.key);
                            events.add(new RtAppEvent.Timer(t.slot, t.unique, t.periodNanos, !absolute));
                        } else {
                            events.add(e);
                        }
                    }
                    phases.add(new RtAppPhase(phase.loop(), List.copyOf(events)));
                }
                out.add(new RtAppTask(task.name(), task.instances(), task.delayNanos(), task.loop(), List.copyOf(phases),
                        task.uniqueTimers()));
            }
            return List.copyOf(out);
        }
    }

    /** A timer before its mode is resolved; never leaves the parser. */
    record PendingTimer(int slot, boolean unique, long periodNanos, boolean absolute, String key)
            implements RtAppEvent {
    }

    /** The event name a key denotes by rt-app's prefix rule, or null when the key is no event. */
    static String eventOf(String key) {
        for (String prefix : EVENT_PREFIXES) {
            if (key.startsWith(prefix)) {
                // parse_task_event_data tests run/sleep first: "runtime0" is runtime, "run0" run
                if (prefix.equals("runtime") || prefix.equals("run")) {
                    return key.startsWith("runtime") ? "runtime" : "run";
                }
                if (prefix.equals("mem") && key.startsWith("memrun")) {
                    return "memrun";
                }
                return prefix;
            }
        }
        return null;
    }

    /** RFC 6901 escaping of one reference token. */
    static String escape(String token) {
        return token.replace("~", "~0").replace("/", "~1");
    }
}
