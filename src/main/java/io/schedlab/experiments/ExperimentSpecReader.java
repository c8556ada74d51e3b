package io.schedlab.experiments;

import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.Violation;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonPointer;
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
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.NullNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Reads a submitted experiment strictly: UTF-8 only, no unknown fields, no duplicate keys, no
 * silent coercion (a string is not a number, 1.5 is not an integer). Every failure names the
 * place with a JSON pointer (RFC 6901). Also writes specs back as JSON with the same conventions.
 */
public final class ExperimentSpecReader {

    /** The member of an experiment or sweep body that names where to post when it has finished. */
    public static final String NOTIFY = "notify";

    /** Most wrongly typed values reported for one body (each costs one more binding pass). */
    public static final int MAX_TYPE_PROBLEMS = 100;

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
     * message for an empty body ("an experiment", "a sweep"). Every wrongly typed value is reported.
     */
    public <T> T read(String json, Class<T> type, String what) {
        return readAll(json, type, what).orThrow().value();
    }

    /**
     * A body read as far as it goes: malformed JSON still throws (at its line and column), but each
     * wrongly typed value is left out (an array element becomes null) and reported, so the rest can
     * be validated too and every problem answered at once. At most {@link #MAX_TYPE_PROBLEMS}.
     */
    public <T> ReadAll<T> readAll(String json, Class<T> type, String what) {
        return readAll(json, type, what, false);
    }

    /**
     * As {@link #readAll(String, Class, String)}, with a top-level {@code notify} member taken out
     * before the body is bound to {@code type} (it is the service's, not the engine's).
     */
    public <T> ReadAll<T> readAllWithNotify(String json, Class<T> type, String what) {
        return readAll(json, type, what, true);
    }

    /** As {@link #read(String, Class, String)}, with the body's {@code notify} member taken out. */
    public <T> ReadAll<T> readWithNotify(String json, Class<T> type, String what) {
        return readAllWithNotify(json, type, what).orThrow();
    }

    private <T> ReadAll<T> readAll(String json, Class<T> type, String what, boolean takeNotify) {
        if (json.isBlank()) {
            throw new MalformedExperimentException(new Violation("", "the body is empty; send " + what + " as a JSON object"));
        }
        JsonNode tree;
        try {
            tree = mapper.readTree(json);
        } catch (JacksonException e) {
            throw new MalformedExperimentException(new Violation(pointer(e), describe(e)));
        }
        if (tree == null || tree.isNull() || tree.isMissingNode()) {
            throw new MalformedExperimentException(new Violation("", "expected a JSON object, got null"));
        }
        JsonNode notify = takeNotify && tree instanceof ObjectNode object ? object.remove(NOTIFY) : null;
        List<Violation> problems = new ArrayList<>();
        while (true) {
            try {
                return new ReadAll<>(mapper.treeToValue(tree, type), List.copyOf(problems), notify);
            } catch (JacksonException e) {
                String at = pointer(e);
                problems.add(new Violation(at, describe(e)));
                if (problems.size() >= MAX_TYPE_PROBLEMS || !leaveOut(tree, at)) {
                    throw new MalformedExperimentException(problems);
                }
            }
        }
    }

    /**
     * A body's value with its wrongly typed values left out, those values' problems, and its
     * {@code notify} member when it was taken out (null otherwise or when the body has none).
     */
    public record ReadAll<T>(T value, List<Violation> typeProblems, JsonNode notifyTarget) {

        /** This read when no value had the wrong type; else the type problems as one malformed-body answer. */
        public ReadAll<T> orThrow() {
            if (!typeProblems.isEmpty()) {
                throw new MalformedExperimentException(typeProblems);
            }
            return this;
        }
    }

    /** Removes the object member at the pointer or nulls the array element there; false when there is none. */
    private static boolean leaveOut(JsonNode root, String pointer) {
        if (pointer.isEmpty()) {
            return false;
        }
        JsonPointer at = JsonPointer.compile(pointer);
        JsonNode parent = root.at(at.head());
        JsonPointer last = at.last();
        if (parent instanceof ObjectNode object && object.has(last.getMatchingProperty())) {
            object.remove(last.getMatchingProperty());
            return true;
        }
        int index = last.getMatchingIndex();
        if (parent instanceof ArrayNode array && index >= 0 && index < array.size() && !array.get(index).isNull()) {
            array.set(index, NullNode.getInstance());
            return true;
        }
        return false;
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
            return clean(v.getCause().getMessage());
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
            return "malformed JSON" + at(e.getLocation()) + ": " + clean(e.getOriginalMessage());
        }
        return "cannot read this value: " + clean(e.getOriginalMessage());
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

    /** Matches a backquoted qualified class name as the JSON library writes it, e.g. `java.lang.Integer`. */
    private static final java.util.regex.Pattern QUALIFIED = java.util.regex.Pattern.compile("`(?:[\\w$]+\\.)+([\\w$]+)`");

    /**
     * The first line of a library message without its internals: no source location marker
     * ("[Source: ...]", the line and column are given separately), no qualified class names, no backquotes.
     */
    static String clean(String message) {
        String line = firstLine(message);
        int source = line.indexOf("[Source:");
        if (source >= 0) {
            line = line.substring(0, source).strip();
        }
        line = QUALIFIED.matcher(line).replaceAll("'$1'").replace('`', '\'');
        return line.endsWith(" at") ? line.substring(0, line.length() - 3) : line;
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "unreadable input";
        }
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }
}
