package io.schedlab.auth;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The key set of the keys file, read again when the file changes: {@link #reloadIfChanged()}
 * compares the file's modification time and size with the last read and, when either changed,
 * parses it and swaps the whole set in one step (a request sees the old set or the new one, never
 * a mix). A file that does not parse or cannot be read keeps the old keys, logs an error, counts
 * {@code schedlab.auth.keys.reload.failures} and is reported in the health details until a good
 * file is read. Polling, not a WatchService: it also sees a file replaced on a mounted volume
 * (a Kubernetes secret or a bind mount), where directory events are not delivered.
 */
public final class ReloadingApiKeys implements Supplier<ApiKeys> {

    private static final Logger log = LoggerFactory.getLogger(ReloadingApiKeys.class);

    private final Path file;
    private final AtomicReference<ApiKeys> current;
    private final Counter failures;
    private volatile Stamp lastRead;
    private volatile Stamp lastRefused;
    private volatile String lastError;
    private volatile Instant loadedAt;

    /** Reads the file (a bad file here fails the start-up) and registers its meters. */
    public ReloadingApiKeys(Path file, MeterRegistry meters) {
        this.file = file;
        this.lastRead = Stamp.of(file);
        this.current = new AtomicReference<>(ApiKeys.load(file));
        this.loadedAt = Instant.now();
        this.failures = Counter.builder("schedlab.auth.keys.reload.failures")
                .description("Changes of the API keys file that were refused (the previous keys stayed in force)")
                .register(meters);
        Gauge.builder("schedlab.auth.keys", this, k -> k.get().size())
                .description("API keys in force").register(meters);
    }

    @Override
    public ApiKeys get() {
        return current.get();
    }

    /** Reads the file again if its modification time or size changed since the last read; true when new keys are in force. */
    public synchronized boolean reloadIfChanged() {
        Stamp now = Stamp.of(file);
        if (now.equals(lastRead) || now.equals(lastRefused)) {
            return false;
        }
        try {
            ApiKeys keys = ApiKeys.load(file);
            current.set(keys);
            lastRead = now;
            lastRefused = null;
            lastError = null;
            loadedAt = Instant.now();
            log.info("API keys reloaded: {} key(s) from {}", keys.size(), file);
            return true;
        } catch (IllegalStateException e) {
            lastRefused = now; // logged once per change, not once per poll
            lastError = e.getMessage();
            failures.increment();
            log.error("API keys file {} changed but was refused; the previous {} key(s) stay in force: {}", file,
                    current.get().size(), e.getMessage());
            return false;
        }
    }

    /** Health details: the file, keys in force, when they were read, and the last refused change (if any). */
    public Map<String, Object> details() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("file", file.toString());
        out.put("keys", current.get().size());
        out.put("loadedAt", loadedAt.toString());
        if (lastError != null) {
            out.put("lastReloadError", lastError);
        }
        return out;
    }

    /** True while the latest change of the file was refused. */
    public boolean lastReloadFailed() {
        return lastError != null;
    }

    /** What identifies a version of the file: modification time and size (missing file: both null). */
    private record Stamp(Instant modified, Long size) {
        static Stamp of(Path file) {
            try {
                BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
                return new Stamp(a.lastModifiedTime().toInstant(), a.size());
            } catch (IOException e) {
                return new Stamp(null, null);
            }
        }
    }
}
