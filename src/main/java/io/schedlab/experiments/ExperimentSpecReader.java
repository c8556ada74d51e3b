package io.schedlab.experiments;

import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.Violation;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.core.exc.InputCoercionException;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.exc.InvalidFormatException;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.exc.UnrecognizedPropertyException;
import tools.jackson.databind.exc.ValueInstantiationException;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads a submitted experiment strictly: UTF-8 only, no unknown fields, no duplicate keys, no
 * silent coercion (a string is not a number, 1.5 is not an integer). Every failure names the
 * place with a JSON pointer (RFC 6901). Also writes specs back as JSON with the same conventions.
 */
public final class ExperimentSpecReader {

    /** The member of an experiment or sweep body that names where to post when it has finished. */
    public static final String NOTIFY = "notify";

    private final JsonMapper mapper = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
            .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
            .enable(MapperFeature.ACCEPT_CASE_INSENSITIVE_ENUMS)
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();

    /** The body as text, exactly as sent; rejects bytes that are not UTF-8. */
    public String decode(byte[] body) {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(body)).toString();
        } catch (CharacterCodingException e) {
            throw new MalformedExperimentException(new Violation("", "the body is not valid UTF-8 text"));
        }
    }

    /** Parses an experiment; throws {@link MalformedExperimentException} naming the bad place. */
    public ExperimentSpec read(String json) {
        return read(json, ExperimentSpec.class, "an experiment");
    }

    /**
     * Parses a request body of any type with the same strict rules; {@code what} names it in the
     * message for an empty body ("an experiment", "a sweep").
     */
    public <T> T read(String json, Class<T> type, String what) {
        if (json.isBlank()) {
            throw new MalformedExperimentException(new Violation("", "the body is empty; send " + what + " as a JSON object"));
        }
        T value;
        try {
            value = mapper.readValue(json, type);
        } catch (JacksonException e) {
            throw new MalformedExperimentException(new Violation(pointer(e), describe(e)));
        }
        if (value == null) {
            throw new MalformedExperimentException(new Violation("", "expected a JSON object, got null"));
        }
        return value;
    }

    /** A request body with its {@code notify} object taken out of it (null: the body has none). */
    public record WithNotify<T>(T value, tools.jackson.databind.JsonNode notifyTarget) {
    }

    /**
     * As {@link #read(String, Class, String)}, with a top-level {@code notify} member taken out before
     * the body is bound to {@code type} (it is the service's, not the engine's). A body without the word
     * is read as it is.
     */
    public <T> WithNotify<T> readWithNotify(String json, Class<T> type, String what) {
        if (!json.contains("\"" + NOTIFY + "\"")) {
            return new WithNotify<>(read(json, type, what), null);
        }
        tools.jackson.databind.JsonNode tree;
        try {
            tree = mapper.readTree(json);
        } catch (JacksonException e) {
            return new WithNotify<>(read(json, type, what), null); // reports the syntax error with its place
        }
        if (!(tree instanceof tools.jackson.databind.node.ObjectNode object) || !object.has(NOTIFY)) {
            return new WithNotify<>(read(json, type, what), null);
        }
        tools.jackson.databind.JsonNode notify = object.remove(NOTIFY);
        try {
            return new WithNotify<>(mapper.treeToValue(object, type), notify);
        } catch (JacksonException e) {
            throw new MalformedExperimentException(new Violation(pointer(e), describe(e)));
        }
    }

    /** A JSON tree (e.g. a sweep's base) as an experiment, with the same strict rules. */
    public ExperimentSpec read(tools.jackson.databind.JsonNode tree) {
        try {
            return mapper.treeToValue(tree, ExperimentSpec.class);
        } catch (JacksonException e) {
            throw new MalformedExperimentException(new Violation(pointer(e), describe(e)));
        }
    }

    /** Compact JSON of any spec, result or label map (field order as declared, maps as given). */
    public String write(Object value) {
        return mapper.writeValueAsString(value);
    }

    /** Parses JSON written by {@link #write} back into a type. */
    public <T> T readStored(String json, Class<T> type) {
        return mapper.readValue(json, type);
    }

    static String pointer(JacksonException e) {
        if (e.getPath().isEmpty() && e.processor() instanceof JsonParser parser && parser.streamReadContext() != null) {
            // syntax errors carry no databind path: take where the parser was
            return parser.streamReadContext().pathAsPointer().toString();
        }
        StringBuilder sb = new StringBuilder();
        for (JacksonException.Reference ref : e.getPath()) {
            if (ref.getPropertyName() != null) {
                sb.append('/').append(ref.getPropertyName().replace("~", "~0").replace("/", "~1"));
            } else if (ref.getIndex() >= 0) {
                sb.append('/').append(ref.getIndex());
            }
        }
        return sb.toString();
    }

    private static String describe(JacksonException e) {
        if (e instanceof UnrecognizedPropertyException u) {
            return "unknown field '" + u.getPropertyName() + "'" + known(u.getKnownPropertyIds());
        }
        if (e instanceof ValueInstantiationException v && v.getCause() != null && v.getCause().getMessage() != null) {
            return firstLine(v.getCause().getMessage());
        }
        if (e instanceof InvalidFormatException f && f.getTargetType() != null && f.getTargetType().isEnum()) {
            return "'" + f.getValue() + "' is not one of " + enumValues(f.getTargetType());
        }
        if (e instanceof MismatchedInputException m && m.getTargetType() != null) {
            return "expected " + expected(m.getTargetType());
        }
        if (e instanceof InputCoercionException c) {
            return "number out of range for " + expected(c.getTargetType());
        }
        if (e instanceof StreamReadException) {
            return "malformed JSON" + at(e.getLocation()) + ": " + firstLine(e.getOriginalMessage());
        }
        return "cannot read this value: " + firstLine(e.getOriginalMessage());
    }

    private static String known(Collection<Object> ids) {
        return ids == null || ids.isEmpty() ? "" : "; known fields: " + ids.stream().map(String::valueOf).sorted().toList();
    }

    private static String enumValues(Class<?> type) {
        return java.util.Arrays.stream(type.getEnumConstants()).map(c -> ((Enum<?>) c).name().toLowerCase()).toList()
                .toString();
    }

    static String expected(Class<?> type) {
        if (type == null) {
            return "a value of another type";
        }
        if (type == Integer.class || type == int.class) {
            return "an integer (32-bit)";
        }
        if (type == Long.class || type == long.class) {
            return "an integer (64-bit)";
        }
        if (type == Double.class || type == double.class || type == Float.class || Number.class.isAssignableFrom(type)) {
            return "a number";
        }
        if (type == Boolean.class || type == boolean.class) {
            return "a boolean";
        }
        if (type == String.class) {
            return "a string";
        }
        if (type.isEnum()) {
            return "one of " + enumValues(type);
        }
        if (List.class.isAssignableFrom(type) || Collection.class.isAssignableFrom(type) || type.isArray()) {
            return "an array";
        }
        if (Map.class.isAssignableFrom(type) || type.isRecord() || type == Object.class) {
            return "an object";
        }
        return "a value of type " + type.getSimpleName();
    }

    private static String at(TokenStreamLocation loc) {
        return loc == null || loc.getLineNr() < 1 ? "" : " at line " + loc.getLineNr() + ", column " + loc.getColumnNr();
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "unreadable input";
        }
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }
}
