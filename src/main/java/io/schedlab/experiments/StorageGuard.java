package io.schedlab.experiments;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * Refuses new submissions while the data directory's file system (the embedded H2 database, the
 * traces) has less than {@code schedlab.limits.min-free-disk-mb} free, before anything is written:
 * a database that runs out of disk mid-write fails that write and, for H2, may close itself, where
 * a refusal keeps every accepted run and its result safe. Reads, cancels and running jobs go on.
 * The free space is read at most once a second (a submission burst does not stat the disk per request).
 */
@Component
public class StorageGuard {

    private static final long RECHECK_NANOS = 1_000_000_000L;

    private final long minFreeBytes;
    private final LongSupplier usableBytes;
    private final AtomicLong checkedAt = new AtomicLong(Long.MIN_VALUE);
    private volatile long lastUsable = Long.MAX_VALUE;

    @Autowired
    public StorageGuard(@Value("${schedlab.data-dir:./data}") String dataDir,
            @Value("${schedlab.limits.min-free-disk-mb:256}") long minFreeMb) {
        this(minFreeMb << 20, usableSpace(Path.of(dataDir)));
    }

    /** A guard over any free-space reading (tests). */
    StorageGuard(long minFreeBytes, LongSupplier usableBytes) {
        if (minFreeBytes < 0) {
            throw new IllegalArgumentException("schedlab.limits.min-free-disk-mb must be >= 0");
        }
        this.minFreeBytes = minFreeBytes;
        this.usableBytes = usableBytes;
    }

    /** Throws {@link StorageFullException} when less than the minimum is free. */
    public void requireRoom() {
        if (minFreeBytes == 0) {
            return;
        }
        long now = System.nanoTime();
        long last = checkedAt.get();
        if ((last == Long.MIN_VALUE || now - last > RECHECK_NANOS) && checkedAt.compareAndSet(last, now)) {
            lastUsable = usableBytes.getAsLong();
        }
        long free = lastUsable;
        if (free < minFreeBytes) {
            throw new StorageFullException(free, minFreeBytes);
        }
    }

    /** Usable bytes of the file system holding {@code dir} (its nearest existing ancestor); unknown = no limit. */
    private static LongSupplier usableSpace(Path dir) {
        return () -> {
            Path p = dir.toAbsolutePath();
            while (p != null && !Files.exists(p)) {
                p = p.getParent();
            }
            try {
                return p == null ? Long.MAX_VALUE : Files.getFileStore(p).getUsableSpace();
            } catch (IOException e) {
                return Long.MAX_VALUE; // a file system that cannot say: the database's own error will
            }
        };
    }
}
