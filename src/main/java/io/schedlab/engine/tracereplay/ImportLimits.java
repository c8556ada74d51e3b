package io.schedlab.engine.tracereplay;

/**
 * Bounds on what one import reads: the file's size in bytes, its records (lines or binary records), the
 * threads (vCPUs) it may name and the highest CPU number.
 *
 * @param maxBytes   largest file accepted
 * @param maxRecords most records (text lines or xentrace records)
 * @param maxThreads most distinct threads or vCPUs
 * @param maxCpus    most host CPUs (CPU numbers 0..maxCpus-1)
 */
public record ImportLimits(long maxBytes, long maxRecords, int maxThreads, int maxCpus) {

    /** 1 MiB (the service's default request limit), 100k records, 2048 threads, 1024 CPUs. */
    public static final ImportLimits DEFAULT = new ImportLimits(1_048_576, 100_000, 2048, 1024);

    void checkSize(long bytes) {
        if (bytes == 0) {
            throw new TraceImportException("file", "empty");
        }
        if (bytes > maxBytes) {
            throw new TraceImportException("file", bytes + " bytes, over the limit of " + maxBytes);
        }
    }
}
