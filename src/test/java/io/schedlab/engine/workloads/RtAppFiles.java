package io.schedlab.engine.workloads;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import tools.jackson.databind.json.JsonMapper;

/** The rt-app example files under src/test/resources/rt-app, as text or read as the API reads a JSON object. */
public final class RtAppFiles {
    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    private RtAppFiles() {
    }

    /** The file's text; a missing file fails the test. */
    public static String text(String name) {
        try (InputStream in = RtAppFiles.class.getResourceAsStream("/rt-app/" + name)) {
            if (in == null) {
                throw new IllegalStateException("missing test resource rt-app/" + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The file as a JSON object (key order kept). */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> object(String name) {
        return MAPPER.readValue(text(name), Map.class);
    }

    /** Inline JSON text as an object. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> json(String text) {
        return MAPPER.readValue(text, Map.class);
    }
}
