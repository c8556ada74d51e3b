package io.schedlab.engine.sim;

import java.util.SplittableRandom;

/** One deterministic random stream per entity, derived from the experiment seed and a stable entity key. */
public final class Seeds {
    private Seeds() {
    }

    /** A stream for {@code key} (e.g. "policy:credit2", "workload:vm1"): same seed and key, same numbers. */
    public static SplittableRandom stream(long seed, String key) {
        long h = 0xcbf29ce484222325L; // FNV-1a 64 over the key's chars: stable across JVMs
        for (int i = 0; i < key.length(); i++) {
            h ^= key.charAt(i);
            h *= 0x100000001b3L;
        }
        return new SplittableRandom(mix(seed ^ mix(h)));
    }

    /** SplitMix64 finalizer (Steele, Lea, Flood: "Fast splittable pseudorandom number generators", 2014). */
    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
