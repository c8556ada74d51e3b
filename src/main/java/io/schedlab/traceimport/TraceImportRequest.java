package io.schedlab.traceimport;

/**
 * What to import and how: the file's format, how threads become VMs, the scheduler to replay under, the
 * experiment's name (null: after the format) and, for xentrace, the TSC rate.
 */
public record TraceImportRequest(String format, String groupBy, String scheduler, String name, Long cpuHz) {
}
