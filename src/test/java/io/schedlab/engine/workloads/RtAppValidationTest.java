package io.schedlab.engine.workloads;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.Validation;
import io.schedlab.engine.spec.ExperimentSpec.StopCondition;
import io.schedlab.engine.spec.Limits;
import io.schedlab.engine.spec.Violation;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** What the model cannot run in an rt-app document is one violation whose pointer names the exact key. */
class RtAppValidationTest {

    private static final String PARAMS = "/vms/0/workload/params";

    private static List<Violation> violations(Object json) {
        Validation v = EngineRuns.ENGINE.validate(EngineRuns.spec(EngineRuns.host(1, 2, 1), "static",
                StopCondition.DURATION, 1, List.of(EngineRuns.vm("vm", 2, null, null, null, "rt-app",
                        Map.of("json", json)))), Limits.defaults());
        return v.violations();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "mem, /tasks/thread0/phases/p1/mem, rt-app event 'mem' is not modelled",
        "iorun, /tasks/thread0/iorun, rt-app event 'iorun' is not modelled",
        "yield, /tasks/thread0/phases/spin/yield, rt-app event 'yield' is not modelled",
        "barrier, /tasks/thread0/barrier, rt-app event 'barrier' is not modelled",
        "signal, /tasks/waker/signal, rt-app event 'signal' is not modelled",
        "fork, /tasks/parent/fork, rt-app event 'fork' is not modelled",
        "cpus, /tasks/thread0/phases/p0/cpus, not an rt-app key the model maps",
        "policy-fifo, /tasks/thread0/policy, only \"SCHED_OTHER\"",
        "dl-runtime, /tasks/thread0/phases/p0/dl-runtime, not an rt-app key the model maps"})
    void eachRefusedFeatureIsNamedByItsPointer(String file, String pointer, String message) {
        List<Violation> object = violations(RtAppFiles.object("refused/" + file + ".json"));
        assertThat(object).singleElement().satisfies(v -> {
            assertThat(v.pointer()).isEqualTo(PARAMS + "/json" + pointer);
            assertThat(v.message()).contains(message);
        });
        // as a string the pointer stops at the parameter and the message carries the rest
        List<Violation> text = violations(RtAppFiles.text("refused/" + file + ".json"));
        assertThat(text).singleElement().satisfies(v -> {
            assertThat(v.pointer()).isEqualTo(PARAMS + "/json");
            assertThat(v.message()).startsWith("at " + pointer + ": ").contains(message);
        });
    }

    @Test
    void theTimerMutexLoopsExampleIsValid() {
        assertThat(violations(RtAppFiles.object("timer-mutex-loops.json"))).isEmpty();
        assertThat(violations(RtAppFiles.text("timer-mutex-loops.json"))).isEmpty();
    }

    private static Violation only(String json) {
        List<Violation> v = violations(RtAppFiles.json(json));
        assertThat(v).hasSize(1);
        return v.get(0);
    }

    @Test
    void mutexMisuseIsRefusedAtTheEvent() {
        assertThat(only("""
                {"tasks": {"t": {"lock": "m", "run": 10, "lock1": "m", "unlock": "m"}}}""").pointer())
                .isEqualTo(PARAMS + "/json/tasks/t/lock1");
        assertThat(only("""
                {"tasks": {"t": {"run": 10, "unlock": "m"}}}""").pointer()).isEqualTo(PARAMS + "/json/tasks/t/unlock");
        assertThat(only("""
                {"tasks": {"t": {"phases": {"a": {"lock": "m", "run": 10}, "b": {"run": 10}}}}}""").message())
                .contains("still holding a mutex");
        // a phase that locks without unlocking cannot loop: its second pass would lock again
        assertThat(only("""
                {"tasks": {"t": {"phases": {"a": {"loop": 2, "lock": "m", "run": 10}, "b": {"unlock": "m"}}}}}""")
                .pointer()).isEqualTo(PARAMS + "/json/tasks/t/phases/a/lock");
    }

    @Test
    void valuesAreCheckedWhereTheyStand() {
        assertThat(only("""
                {"tasks": {"t": {"run": -1, "sleep": 10}}}""").pointer()).isEqualTo(PARAMS + "/json/tasks/t/run");
        assertThat(only("""
                {"tasks": {"t": {"run": 10, "timer": {"ref": "x", "period": 0}}}}""").pointer())
                .isEqualTo(PARAMS + "/json/tasks/t/timer/period");
        assertThat(only("""
                {"tasks": {"t": {"run": 10, "timer": {"ref": "x", "period": 10, "shift": 1}}}}""").pointer())
                .isEqualTo(PARAMS + "/json/tasks/t/timer/shift");
        assertThat(only("""
                {"tasks": {"t": {"priority": 5, "run": 10}}}""").pointer()).isEqualTo(PARAMS + "/json/tasks/t/priority");
        assertThat(only("""
                {"global": {"default_policy": "SCHED_RR"}, "tasks": {"t": {"run": 10}}}""").pointer())
                .isEqualTo(PARAMS + "/json/global/default_policy");
        assertThat(only("""
                {"tasks": {"t": {"lock": "m", "unlock": "m"}}}""").message()).contains("no event takes time");
        assertThat(only("""
                {"tasks": {"a/b": {"run": 10, "mem": 1}}}""").pointer()).isEqualTo(PARAMS + "/json/tasks/a~1b/mem");
        assertThat(only("""
                {"task": {"t": {"run": 10}}}""").pointer()).isEqualTo(PARAMS + "/json/task");
        assertThat(violations("{\"tasks\": {").get(0).message()).startsWith("not valid JSON");
        assertThat(violations(List.of(1)).get(0).pointer()).isEqualTo(PARAMS + "/json");
    }

    @Test
    void sizesAreBoundedAndTheLimitIsNamed() {
        Map<String, Object> tasks = new LinkedHashMap<>();
        for (int i = 0; i <= RtAppDocument.MAX_TASKS; i++) {
            tasks.put("t" + i, Map.of("run", 10));
        }
        assertThat(only(Map.of("tasks", tasks))).satisfies(v -> {
            assertThat(v.pointer()).isEqualTo(PARAMS + "/json/tasks");
            assertThat(v.message()).contains("limit " + RtAppDocument.MAX_TASKS);
        });
        assertThat(only(Map.of("tasks", Map.of("a", Map.of("instance", 200, "run", 10),
                "b", Map.of("instance", 200, "run", 10))))).satisfies(v -> {
                    assertThat(v.pointer()).endsWith("/instance");
                    assertThat(v.message()).contains("limit " + RtAppDocument.MAX_THREADS);
                });
        assertThat(only("""
                {"tasks": {"t": {"loop": 2000000000, "run": 10}}}""").message()).contains("1000000000");
        Map<String, Object> many = new LinkedHashMap<>();
        for (int i = 0; i <= RtAppDocument.MAX_EVENTS; i++) {
            many.put("run" + i, 1);
        }
        assertThat(only(Map.of("tasks", Map.of("t", many))).message()).contains("limit " + RtAppDocument.MAX_EVENTS);
        String big = "{\"tasks\": {\"t\": {\"run\": 10, \"sleep\": 10}}, \"global\": {\"logdir\": \""
                + "x".repeat(RtAppDocument.MAX_DOCUMENT_BYTES) + "\"}}";
        assertThat(violations(big)).singleElement()
                .satisfies(v -> assertThat(v.message()).contains(String.valueOf(RtAppDocument.MAX_DOCUMENT_BYTES)));
        assertThat(only(RtAppFiles.json(big))).satisfies(v -> {
            assertThat(v.pointer()).isEqualTo(PARAMS + "/json");
            assertThat(v.message()).contains("limit " + RtAppDocument.MAX_DOCUMENT_BYTES);
        });
    }

    private static Violation only(Map<String, Object> json) {
        List<Violation> v = violations(json);
        assertThat(v).hasSize(1);
        return v.get(0);
    }
}
