package io.schedlab.packaging;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/** Reads the project's top-level packaging files (Dockerfile, compose, docker/...) for static tests. */
final class RepoFiles {

    private RepoFiles() {
    }

    /** The project root: Maven runs tests with the module directory as working directory. */
    static Path root() {
        return Path.of(System.getProperty("user.dir")).toAbsolutePath();
    }

    static Path path(String relative) {
        return root().resolve(relative).normalize();
    }

    static String read(String relative) {
        try {
            return Files.readString(path(relative), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Parses a YAML file safely (no arbitrary types); anchors and merge keys are resolved. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> yaml(String relative) {
        Yaml yaml = new Yaml(new SafeConstructor(new LoaderOptions()));
        return (Map<String, Object>) yaml.load(read(relative));
    }

    /** Every document of a multi-document YAML file ({@code ---} separated), in order. */
    static List<Map<String, Object>> yamlDocuments(String relative) {
        Yaml yaml = new Yaml(new SafeConstructor(new LoaderOptions()));
        List<Map<String, Object>> documents = new ArrayList<>();
        for (Object document : yaml.loadAll(read(relative))) {
            if (document != null) {
                documents.add(map(document));
            }
        }
        return documents;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object node) {
        return (Map<String, Object>) node;
    }
}
