package io.schedlab.engine.calibration;

import io.schedlab.engine.Engine;
import io.schedlab.engine.knobs.Knob;
import io.schedlab.engine.knobs.KnobSet;
import io.schedlab.engine.catalogue.BuiltInScenarios;
import io.schedlab.engine.catalogue.CaseScore;
import io.schedlab.engine.catalogue.Scenario;
import io.schedlab.engine.catalogue.ScenarioRun;
import io.schedlab.engine.catalogue.ScenarioRunner;
import io.schedlab.engine.catalogue.ScenarioTable;
import io.schedlab.engine.catalogue.Scorer;
import io.schedlab.engine.catalogue.ValidationCatalogue;
import io.schedlab.engine.spec.Limits;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The catalogue at quick size scored by {@link Scorer} on the engine, as {@code scenario score all --quick}
 * scores it, with a knob set filled into every run. The engine is deterministic, so a case is scored once per
 * distinct value of the knobs its experiments read: a case that reads none of the overridden knobs reuses its
 * score at the defaults.
 */
public final class QuickCatalogue implements CatalogueScores {

    private final Engine engine;
    private final int threads;
    private final List<ValidationCatalogue.Case> cases;
    private final Consumer<String> progress;
    private final Map<List<Object>, CaseScore> done = new HashMap<>();
    private final Map<Knob, List<String>> reading = new HashMap<>();
    private int runs;

    /** The given cases (all when empty) on {@code threads} threads; progress lines go to {@code progress}. */
    public QuickCatalogue(Engine engine, int threads, List<String> caseIds, Consumer<String> progress) {
        this.engine = engine;
        this.threads = threads;
        this.cases = caseIds.isEmpty() ? ValidationCatalogue.cases()
                : caseIds.stream().map(id -> ValidationCatalogue.byId(id).orElseThrow(
                        () -> new IllegalArgumentException("unknown case '" + id + "'"))).toList();
        this.progress = progress;
    }

    @Override
    public List<CaseScore> score(KnobSet knobs) {
        List<CaseScore> out = new ArrayList<>();
        for (ValidationCatalogue.Case c : cases) {
            KnobSet read = readBy(c.id(), knobs);
            List<Object> key = List.of(c.id(), read);
            CaseScore score = done.get(key);
            if (score == null) {
                runs++;
                ScenarioRunner runner = ScenarioRunner.of(engine, Limits.defaults(), threads, read);
                score = new Scorer(runner, engine.registry(), true).score(c,
                        line -> progress.accept("[" + c.id() + " " + read + "] " + line));
                done.put(key, score);
            }
            out.add(score);
        }
        return out;
    }

    @Override
    public List<String> casesReading(Knob knob) {
        return reading.computeIfAbsent(knob, k -> {
            KnobSet probe = KnobSet.DEFAULTS.with(k, k.scaled(2));
            List<String> ids = new ArrayList<>();
            for (ValidationCatalogue.Case c : cases) {
                if (experiments(c.id()).stream().anyMatch(probe::changes)) {
                    ids.add(c.id());
                }
            }
            return List.copyOf(ids);
        });
    }

    /** Case scorings run so far (the others were reused). */
    public int caseRuns() {
        return runs;
    }

    /** The part of {@code knobs} that case {@code id} reads. */
    private KnobSet readBy(String id, KnobSet knobs) {
        KnobSet read = KnobSet.DEFAULTS;
        for (Map.Entry<Knob, Double> e : knobs.values().entrySet()) {
            if (casesReading(e.getKey()).contains(id)) {
                read = read.with(e.getKey(), e.getValue());
            }
        }
        return read;
    }

    private static List<io.schedlab.engine.spec.ExperimentSpec> experiments(String id) {
        Map<io.schedlab.engine.spec.ExperimentSpec, Boolean> specs = new LinkedHashMap<>();
        BuiltInScenarios.byId(id, true).map(Scenario::tables).orElse(List.of()).stream()
                .map(ScenarioTable::runs).flatMap(List::stream).map(ScenarioRun::spec)
                .forEach(s -> specs.put(s, true));
        return List.copyOf(specs.keySet());
    }
}
