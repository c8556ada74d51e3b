package io.schedlab.engine.scenarios;

import java.util.function.Function;
import tools.jackson.databind.JsonNode;

/**
 * A scenario cell read at one JSON pointer of the result document, times {@code scale} (e.g.
 * 1e-3 for ns to us). Being a value rather than a lambda, it says where it reads, so a scenario
 * table can be described as a sweep whose metrics are these pointers.
 */
public record PointerExtractor(String pointer, double scale) implements Function<JsonNode, Double> {

    @Override
    public Double apply(JsonNode doc) {
        Double v = Extractors.number(doc.at(pointer));
        return v == null ? null : v * scale;
    }
}
