package io.schedlab.engine.tracereplay;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The sample traces of src/test/resources/traceimport. */
final class TraceFiles {

    static final Path DIR = Path.of("src/test/resources/traceimport");

    private TraceFiles() {
    }

    static byte[] bytes(String name) {
        try {
            return Files.readAllBytes(DIR.resolve(name));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static long[] micros(long... us) {
        long[] ns = new long[us.length];
        for (int i = 0; i < us.length; i++) {
            ns[i] = us[i] * 1000;
        }
        return ns;
    }
}
