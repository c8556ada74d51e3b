package io.schedlab.engine.workloads;

import io.schedlab.engine.params.InvalidParameterException;

/** The {@code csv} parameter of a trace workload is malformed; the message names the row (1 = first data row) and column. */
public final class TraceCsvException extends InvalidParameterException {

    private final int row;

    public TraceCsvException(int row, String message) {
        super("csv", row > 0 ? "csv row " + row + ": " + message : "csv: " + message);
        this.row = row;
    }

    /** Data row number (1-based, header excluded), or 0 when the problem is not in one row. */
    public int row() {
        return row;
    }
}
