package io.schedlab.engine.sweepgrid;

import java.util.Map;

/** One point of a sweep's grid: its index (first axis slowest), key ("a=1, b=x") and level per axis. */
public record SweepCell(int index, String key, Map<String, String> levels) {
}
