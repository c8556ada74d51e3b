package io.schedlab.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.test.web.servlet.MockMvc;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;

/**
 * The top-level openapi.yaml is the contract: this fails when the document springdoc serves from
 * the code disagrees with it on paths, operations (with their ids and response codes) or
 * component schemas (by name and property names). The served document is written to
 * target/served-openapi.yaml to diff against when it fails.
 */
@SpringBootTest(properties = {"spring.datasource.url=jdbc:h2:mem:openapi;DB_CLOSE_DELAY=-1", "schedlab.jobs.enabled=false"})
@AutoConfigureMockMvc
class OpenApiContractTest {

    private static final Set<String> METHODS = Set.of("get", "put", "post", "delete", "patch", "head", "options");

    @Autowired
    MockMvc mvc;
    @Test
    void servedDocumentMatchesTheContractFile() throws Exception {
        String served = mvc.perform(get("/v3/api-docs.yaml")).andExpect(status().isOk())
                .andReturn().getResponse().getContentAsString();
        Files.writeString(Path.of("target/served-openapi.yaml"), served);
        Map<String, Object> code = load(served);
        Map<String, Object> file;
        try (InputStream in = Files.newInputStream(Path.of("openapi.yaml"))) {
            file = load(new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8));
        }
        assertThat(file.get("openapi")).asString().startsWith("3.1");
        assertThat(paths(code)).as("paths").isEqualTo(paths(file));
        assertThat(operations(code)).as("operations: METHOD path -> operationId [response codes]")
                .isEqualTo(operations(file));
        assertThat(schemas(code)).as("component schemas -> property names").isEqualTo(schemas(file));
    }

    /**
     * A client generated with default options (openapi-generator) sends the first JSON-like media type
     * of an operation's responses as Accept: that must be the success body's, in the file and as served.
     */
    @Test
    void everyOperationListsItsSuccessResponseFirst() throws Exception {
        String served = mvc.perform(get("/v3/api-docs.yaml")).andExpect(status().isOk())
                .andReturn().getResponse().getContentAsString();
        Map<String, Object> file = load(Files.readString(Path.of("openapi.yaml")));
        for (Map<String, Object> doc : java.util.List.of(file, load(served))) {
            Map<String, String> first = firstResponses(doc);
            assertThat(first).isNotEmpty();
            assertThat(first).allSatisfy((operation, code) -> assertThat(code).as(operation).startsWith("2"));
        }
    }

    /** Every property of every schema says what it is (with its unit where it has one). */
    @Test
    @SuppressWarnings("unchecked")
    void everySchemaPropertyIsDescribed() throws Exception {
        Map<String, Object> file = load(Files.readString(Path.of("openapi.yaml")));
        Map<String, Object> schemas = (Map<String, Object>) ((Map<String, Object>) file.get("components")).get("schemas");
        Set<String> undescribed = new TreeSet<>();
        java.util.concurrent.atomic.AtomicInteger properties = new java.util.concurrent.atomic.AtomicInteger();
        schemas.forEach((name, schema) -> undescribed(name, schema, properties, undescribed));
        assertThat(properties.get()).as("properties walked").isGreaterThan(300);
        assertThat(undescribed).as("schema properties without a description").isEmpty();
    }

    @SuppressWarnings("unchecked")
    private static void undescribed(String at, Object schema, java.util.concurrent.atomic.AtomicInteger count, Set<String> out) {
        if (!(schema instanceof Map<?, ?> map)) {
            return;
        }
        Map<String, Object> s = (Map<String, Object>) map;
        ((Map<String, Object>) s.getOrDefault("properties", Map.of())).forEach((name, property) -> {
            count.incrementAndGet();
            Object description = property instanceof Map<?, ?> p ? p.get("description") : null;
            if (description == null || description.toString().isBlank()) {
                out.add(at + "." + name);
            }
            undescribed(at + "." + name, property, count, out);
        });
        for (String nested : java.util.List.of("items", "additionalProperties")) {
            undescribed(at + "[" + nested + "]", s.get(nested), count, out);
        }
        for (String combined : java.util.List.of("allOf", "oneOf", "anyOf")) {
            if (s.get(combined) instanceof java.util.List<?> parts) {
                for (int i = 0; i < parts.size(); i++) {
                    undescribed(at + "." + combined + "[" + i + "]", parts.get(i), count, out);
                }
            }
        }
    }

    @Test
    void swaggerUiIsServed() throws Exception {
        mvc.perform(get("/swagger-ui/index.html")).andExpect(status().isOk());
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> load(String yaml) {
        LoaderOptions options = new LoaderOptions();
        options.setCodePointLimit(20 * 1024 * 1024);
        return (Map<String, Object>) new Yaml(options).load(yaml);
    }

    @SuppressWarnings("unchecked")
    private static Set<String> paths(Map<String, Object> doc) {
        return new TreeSet<>(((Map<String, Object>) doc.get("paths")).keySet());
    }

    @SuppressWarnings("unchecked")
    private static Map<String, String> operations(Map<String, Object> doc) {
        Map<String, String> out = new TreeMap<>();
        ((Map<String, Object>) doc.get("paths")).forEach((path, item) -> ((Map<String, Object>) item).forEach((m, op) -> {
            if (METHODS.contains(m)) {
                Map<String, Object> o = (Map<String, Object>) op;
                Map<String, Object> responses = (Map<String, Object>) o.getOrDefault("responses", Map.of());
                TreeSet<String> codes = new TreeSet<>();
                responses.keySet().forEach(k -> codes.add(String.valueOf(k)));
                out.put(m.toUpperCase() + " " + path, o.get("operationId") + " " + codes);
            }
        }));
        return out;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, String> firstResponses(Map<String, Object> doc) {
        Map<String, String> out = new TreeMap<>();
        ((Map<String, Object>) doc.get("paths")).forEach((path, item) -> ((Map<String, Object>) item).forEach((m, op) -> {
            if (METHODS.contains(m)) {
                Map<String, Object> responses = (Map<String, Object>) ((Map<String, Object>) op).get("responses");
                out.put(m.toUpperCase() + " " + path, String.valueOf(responses.keySet().iterator().next()));
            }
        }));
        return out;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Set<String>> schemas(Map<String, Object> doc) {
        Map<String, Object> components = (Map<String, Object>) doc.getOrDefault("components", Map.of());
        Map<String, Object> schemas = (Map<String, Object>) components.getOrDefault("schemas", Map.of());
        Map<String, Set<String>> out = new TreeMap<>();
        schemas.forEach((name, s) -> {
            Map<String, Object> props = (Map<String, Object>) ((Map<String, Object>) s).getOrDefault("properties", Map.of());
            out.put(name, new TreeSet<>(props.keySet()));
        });
        return out;
    }
}
