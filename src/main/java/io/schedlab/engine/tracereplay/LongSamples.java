package io.schedlab.engine.tracereplay;

import java.util.Arrays;

/** A growable list of nanosecond samples, kept as primitive longs. */
final class LongSamples {

    private long[] values = new long[16];
    private int size;

    void add(long value) {
        if (size == values.length) {
            values = Arrays.copyOf(values, size * 2);
        }
        values[size++] = value;
    }

    void addToLast(long value) {
        values[size - 1] += value;
    }

    int size() {
        return size;
    }

    long get(int i) {
        return values[i];
    }

    long[] toArray() {
        return Arrays.copyOf(values, size);
    }
}
