package io.schedlab.engine.workloads;

import io.schedlab.engine.workloads.RtAppTask.RtAppPhase;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * Reads one rt-app task object (rt-app_parse_config.c parse_task_data): instance, delay, loop, policy, priority
 * and either a phases object or, without one, its own events as its single phase. Checks that every thread
 * unlocks what it locks, as a default pthread mutex requires (no recursive lock, no unlock by a non-owner).
 */
final class RtAppTaskParser {

    private static final Set<String> TASK_KEYS = Set.of("instance", "delay", "loop", "phases", "policy", "priority");
    private static final String KEYS_HINT = "phase keys the model maps: loop, policy, priority and the events run,"
            + " runtime, sleep, timer, lock, unlock";

    private final RtAppDocument.Parser doc;
    private final String name;
    private final String at;
    /** Unique timer names of this task -> slot (one timer per thread and name, rt-app's "unique" prefix). */
    private final Map<String, Integer> uniqueTimers = new HashMap<>();
    /** Mutexes a thread of this task holds at the point being read, in locking order. */
    private final Set<Integer> held = new LinkedHashSet<>();
    private boolean takesTime;

    RtAppTaskParser(RtAppDocument.Parser doc, String name, String at) {
        this.doc = doc;
        this.name = name;
        this.at = at;
    }

    RtAppTask task(JsonNode node) {
        if (name.isEmpty() || name.length() > RtAppDocument.MAX_NAME_CHARS) {
            throw doc.refuse(at, "a task name has 1.." + RtAppDocument.MAX_NAME_CHARS + " characters");
        }
        if (!node.isObject()) {
            throw doc.refuse(at, "a task must be an object");
        }
        int instances = 1;
        long delay = 0;
        Long loop = null;
        JsonNode phases = null;
        String firstEvent = null;
        for (Map.Entry<String, JsonNode> e : node.properties()) {
            String key = e.getKey();
            String kat = at + "/" + RtAppDocument.escape(key);
            switch (key) {
                case "instance" -> instances = (int) doc.integer(kat, e.getValue(), 0, RtAppDocument.MAX_THREADS);
                case "delay" -> delay = doc.integer(kat, e.getValue(), 0, RtAppDocument.MAX_MICROS) * 1000;
                case "loop" -> loop = doc.integer(kat, e.getValue(), -1, RtAppDocument.MAX_LOOP);
                case "phases" -> phases = e.getValue();
                case "policy" -> doc.policy(kat, e.getValue());
                case "priority" -> doc.priority(kat, e.getValue());
                default -> {
                    if (RtAppDocument.eventOf(key) == null) {
                        throw doc.refuse(kat, "not an rt-app task key the model maps (instance, delay, loop, phases,"
                                + " policy, priority; " + KEYS_HINT + ")");
                    }
                    firstEvent = firstEvent == null ? kat : firstEvent;
                }
            }
        }
        List<RtAppPhase> list = new ArrayList<>();
        long taskLoop;
        if (phases != null) {
            if (firstEvent != null) {
                throw doc.refuse(firstEvent, "an event beside a phases object: put it in a phase");
            }
            String pat = at + "/phases";
            if (!phases.isObject() || phases.isEmpty()) {
                throw doc.refuse(pat, "must be an object of at least one phase");
            }
            if (phases.size() > RtAppDocument.MAX_PHASES) {
                throw doc.refuse(pat, phases.size() + " phases; limit " + RtAppDocument.MAX_PHASES);
            }
            for (Map.Entry<String, JsonNode> e : phases.properties()) {
                list.add(phase(pat + "/" + RtAppDocument.escape(e.getKey()), e.getValue(), false));
            }
            taskLoop = loop == null ? -1 : loop;
        } else {
            // parse_task_data: without phases the task object is its one phase, and its loop is that phase's
            list.add(phase(at, node, true));
            taskLoop = loop == null ? -1 : 1;
        }
        if (!held.isEmpty()) {
            throw doc.refuse(at, "a thread ends its phases still holding a mutex it locked; unlock it first");
        }
        if (!takesTime) {
            throw doc.refuse(at, "no event takes time (run, runtime or sleep > 0, or a timer): the thread would"
                    + " cycle through its events without time passing");
        }
        return new RtAppTask(name, instances, delay, taskLoop, List.copyOf(list), uniqueTimers.size());
    }

    private RtAppPhase phase(String pat, JsonNode node, boolean taskItself) {
        if (!node.isObject()) {
            throw doc.refuse(pat, "a phase must be an object");
        }
        long loop = 1;
        String loopAt = pat;
        List<RtAppEvent> events = new ArrayList<>();
        List<String> pointers = new ArrayList<>();
        for (Map.Entry<String, JsonNode> e : node.properties()) {
            String key = e.getKey();
            String kat = pat + "/" + RtAppDocument.escape(key);
            if (key.equals("loop")) {
                loop = doc.integer(kat, e.getValue(), -1, RtAppDocument.MAX_LOOP);
                loopAt = kat;
                if (loop == 0) {
                    throw doc.refuse(kat, "a phase runs at least once: 1.." + RtAppDocument.MAX_LOOP
                            + " or -1 (forever)");
                }
            } else if (key.equals("policy")) {
                doc.policy(kat, e.getValue());
            } else if (key.equals("priority")) {
                doc.priority(kat, e.getValue());
            } else if (!(taskItself && TASK_KEYS.contains(key))) {
                String event = RtAppDocument.eventOf(key);
                if (event == null) {
                    throw doc.refuse(kat, "not an rt-app key the model maps; " + KEYS_HINT);
                }
                doc.countEvent(kat);
                events.add(event(kat, event, e.getValue()));
                pointers.add(kat);
            }
        }
        if (events.isEmpty()) {
            throw doc.refuse(pat, "no events: an rt-app phase needs at least one (rt-app refuses it too)");
        }
        boolean phaseTakesTime = events.stream().anyMatch(RtAppTaskParser::takesTime);
        takesTime |= phaseTakesTime;
        if (!phaseTakesTime && loop != 1) {
            throw doc.refuse(loopAt, "a phase whose events take no time runs once only (loop 1)");
        }
        checkLocks(events, pointers);
        if (loop != 1) {
            checkLocks(events, pointers); // a second pass finds a lock or unlock that does not pair up per loop
        }
        return new RtAppPhase(loop, List.copyOf(events));
    }

    private void checkLocks(List<RtAppEvent> events, List<String> pointers) {
        for (int i = 0; i < events.size(); i++) {
            if (events.get(i) instanceof RtAppEvent.Lock l && !held.add(l.mutex())) {
                throw doc.refuse(pointers.get(i), "locks a mutex the thread already holds (pthread mutexes are not"
                        + " recursive: it would deadlock)");
            }
            if (events.get(i) instanceof RtAppEvent.Unlock u && !held.remove(u.mutex())) {
                throw doc.refuse(pointers.get(i), "unlocks a mutex the thread does not hold at this point");
            }
        }
    }

    private static boolean takesTime(RtAppEvent e) {
        return e instanceof RtAppEvent.Run r && r.nanos() > 0 || e instanceof RtAppEvent.Runtime t && t.nanos() > 0
                || e instanceof RtAppEvent.Sleep s && s.nanos() > 0 || e instanceof RtAppEvent.Timer
                || e instanceof RtAppDocument.PendingTimer;
    }

    private RtAppEvent event(String kat, String event, JsonNode value) {
        return switch (event) {
            case "run" -> new RtAppEvent.Run(micros(kat, value));
            case "runtime" -> new RtAppEvent.Runtime(micros(kat, value));
            case "sleep" -> new RtAppEvent.Sleep(micros(kat, value));
            case "timer" -> timer(kat, value);
            case "lock" -> new RtAppEvent.Lock(doc.mutex(resourceName(kat, value, "a mutex")));
            case "unlock" -> new RtAppEvent.Unlock(doc.mutex(resourceName(kat, value, "a mutex")));
            default -> throw doc.refuse(kat, "rt-app event '" + event + "' is not modelled: " + whyNot(event));
        };
    }

    private static String whyNot(String event) {
        return switch (event) {
            case "mem", "memrun", "iorun" -> "the model has no per-event memory buffer or I/O device";
            case "yield" -> "the guest kernel has no sched_yield";
            case "fork" -> "the guest kernel creates no threads at run time";
            default -> "the guest kernel has no condition variables, barriers, semaphores or suspend/resume";
        };
    }

    private long micros(String kat, JsonNode value) {
        return doc.integer(kat, value, 0, RtAppDocument.MAX_MICROS) * 1000;
    }

    private String resourceName(String kat, JsonNode value, String what) {
        if (!value.isString() || value.stringValue().isEmpty()
                || value.stringValue().length() > RtAppDocument.MAX_NAME_CHARS) {
            throw doc.refuse(kat, "must name " + what + ": a string of 1.." + RtAppDocument.MAX_NAME_CHARS
                    + " characters");
        }
        return value.stringValue();
    }

    /** timer: {ref, period, mode} (parse_task_event_data: ref defaults to "unknown", mode to "relative"). */
    private RtAppEvent timer(String kat, JsonNode value) {
        if (!value.isObject()) {
            throw doc.refuse(kat, "a timer is an object {\"ref\": name, \"period\": us, \"mode\": relative|absolute}");
        }
        String ref = "unknown";
        long period = -1;
        boolean absolute = false;
        for (Map.Entry<String, JsonNode> e : value.properties()) {
            String tat = kat + "/" + RtAppDocument.escape(e.getKey());
            switch (e.getKey()) {
                case "ref" -> ref = resourceName(tat, e.getValue(), "a timer");
                case "period" -> period = doc.integer(tat, e.getValue(), 1, RtAppDocument.MAX_MICROS) * 1000;
                case "mode" -> {
                    if (!e.getValue().isString() || !Set.of("relative", "absolute").contains(e.getValue().stringValue())) {
                        throw doc.refuse(tat, "must be \"relative\" or \"absolute\"");
                    }
                    absolute = e.getValue().stringValue().equals("absolute");
                }
                default -> throw doc.refuse(tat, "not a timer key (ref, period, mode)");
            }
        }
        if (period < 0) {
            throw doc.refuse(kat + "/period", "required: the timer period in us (1.." + RtAppDocument.MAX_MICROS + ")");
        }
        return doc.timer(name, ref, period, absolute, uniqueTimers);
    }
}
