package io.schedlab.engine.tracereplay;

/** A recorded trace that cannot be read: {@code where} names the place (a line number or a byte offset). */
public final class TraceImportException extends RuntimeException {

    private final String where;

    public TraceImportException(String where, String problem) {
        super(where + ": " + problem);
        this.where = where;
    }

    /** The place of the problem: {@code "line 12"}, {@code "byte 4096"}, or {@code "file"} for the whole file. */
    public String where() {
        return where;
    }

    static TraceImportException atLine(int line, String problem) {
        return new TraceImportException("line " + line, problem);
    }

    static TraceImportException atByte(long offset, String problem) {
        return new TraceImportException("byte " + offset, problem);
    }
}
