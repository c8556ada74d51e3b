package io.schedlab.engine.policies.credit2;

import java.util.BitSet;

/**
 * A fixed-size pCPU mask (Xen's cpumask_t) as plain words: unlike {@link BitSet}, set/clear do not
 * recompute a words-in-use count, and scans can combine several masks word by word without a
 * scratch copy. Only pCPUs below the size given at construction are ever set.
 */
final class CpuMask {
    /** Bit c is {@code words[c >> 6] >>> c & 1}. */
    final long[] words;

    CpuMask(int size) {
        this.words = new long[wordsFor(size)];
    }

    /** Words of a mask of {@code size} pCPUs (at least one). */
    static int wordsFor(int size) {
        return Math.max(1, (size + 63) >>> 6);
    }

    /** A mask of the given size holding the bits of {@code bits} (those below the size). */
    static CpuMask of(BitSet bits, int size) {
        CpuMask m = new CpuMask(size);
        for (int c = bits.nextSetBit(0); c >= 0 && c < size; c = bits.nextSetBit(c + 1)) {
            m.set(c);
        }
        return m;
    }

    boolean get(int c) {
        int w = c >>> 6;
        return w < words.length && (words[w] & (1L << c)) != 0;
    }

    void set(int c) {
        words[c >>> 6] |= 1L << c;
    }

    void clear(int c) {
        words[c >>> 6] &= ~(1L << c);
    }

    void clear() {
        java.util.Arrays.fill(words, 0L);
    }
}
