package io.schedlab.engine.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.schedlab.engine.costs.CostModel;
import io.schedlab.engine.model.Pcpu;
import io.schedlab.engine.model.Topology;
import io.schedlab.engine.params.ParameterSpec;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The per-core L2 / per-socket LLC contents model: what survives another vCPU, what a refill costs. */
class CacheModelTest {
    private static final long KIB = 1024;
    private static final double MIB = 1024.0 * 1024;

    /** 2 sockets x 2 cores, no SMT; L2 256 KiB per core, LLC {@code llcKb} per socket. */
    private static Topology host(int llcKb) {
        List<Pcpu> pcpus = List.of(new Pcpu(0, 0, 0, 0, 0), new Pcpu(1, 0, 1, 0, 0), new Pcpu(2, 1, 2, 0, 1),
                new Pcpu(3, 1, 3, 0, 1));
        return new Topology(pcpus, 2, 2, 1, 2, new int[][] {{10, 21}, {21, 10}}, new double[] {1e4, 1e4},
                new long[] {1024, 1024}, llcKb, 256, 32);
    }

    /** Default costs with this working set; a refill progress fraction of 0, so a refill takes exactly its debt. */
    private static CostModel costs(long workingSetKb) {
        return costs(workingSetKb, 0.0);
    }

    private static CostModel costs(long workingSetKb, double refillProgressFraction) {
        Map<String, Object> values = new LinkedHashMap<>();
        for (ParameterSpec p : CostModel.parameters()) {
            values.put(p.name(), p.defaultValue());
        }
        values.put("coldCacheWorkingSetKb", workingSetKb);
        values.put("refillProgressFraction", refillProgressFraction);
        return CostModel.from(values);
    }

    private static long nanos(long bytes, double mbps) {
        return Math.round(bytes / (mbps * MIB) * 1e9);
    }

    @Test
    void aVcpuAloneOnItsPcpuKeepsItsCaches() {
        CacheModel caches = new CacheModel(host(8192), costs(2048));
        assertThat(caches.switchIn(0, 1, false, -1, 0)).isZero(); // first run: nothing known to refill
        caches.switchOut(0, 1, 10_000_000);
        assertThat(caches.switchIn(0, 1, true, -1, 20_000_000)).isZero();
    }

    @Test
    void anotherVmOnTheSamePcpuEvictsWhatDoesNotFitBesideIt() {
        CostModel c = costs(2048);
        // 1 MiB LLC = L2 (the 2005 two-way server): the other VM's 1 MiB footprint pushes all of ours out
        Topology small = new Topology(host(1024).pcpus(), 2, 2, 1, 2, new int[][] {{10, 21}, {21, 10}},
                new double[] {1e4, 1e4}, new long[] {1024, 1024}, 1024, 1024, 32);
        CacheModel caches = new CacheModel(small, c);
        caches.switchIn(0, 1, false, -1, 0);
        caches.switchOut(0, 1, 30_000_000);
        caches.switchIn(1, 1, false, -1, 30_000_000);
        caches.switchOut(1, 1, 60_000_000);
        // a 2 MiB set in a 1 MiB cache hits half its references even alone: the reload owes (1 - ln 2) of the cache
        long reload = Math.round((1 - Math.log(2)) * 1024 * KIB);
        assertThat(caches.switchIn(0, 1, true, -1, 60_000_000))
                .isCloseTo(nanos(reload, c.memoryRefillMBps()), within(1L));
        // an 8 MiB LLC holds both 2 MiB sets: only the 256 KiB L2 refills, from the LLC, and for a set 8 times
        // its size that is 1 - 7 ln(8/7) of it
        CacheModel big = new CacheModel(host(8192), c);
        big.switchIn(0, 1, false, -1, 0);
        big.switchIn(1, 1, false, -1, 30_000_000);
        long l2Reload = Math.round((1 - 7 * Math.log(8.0 / 7)) * 256 * KIB);
        assertThat(big.switchIn(0, 1, true, -1, 60_000_000)).isCloseTo(nanos(l2Reload, c.llcRefillMBps()), within(1L));
    }

    @Test
    void workingSetsThatFitRefillAllTheyLostAndLargerOnesOnlyTheExtraMisses() {
        long c = 1024 * KIB;
        assertThat(CacheModel.reloadBytes(512 * KIB, c, 0)).isEqualTo(512.0 * KIB);
        assertThat(CacheModel.reloadBytes(512 * KIB, c, 200 * KIB)).isEqualTo(312.0 * KIB);
        assertThat(CacheModel.reloadBytes(c, c, 0)).isEqualTo((double) c);
        // continuous at w = c, falling as the set outgrows the cache (no reuse is left to lose)
        assertThat(CacheModel.reloadBytes(c + 1, c, 0)).isCloseTo(c, within(20.0));
        double previous = c;
        for (long w : new long[] {2 * c, 4 * c, 16 * c, 256 * c}) {
            double r = CacheModel.reloadBytes(w, c, 0);
            assertThat(r).as("w = %d c", w / c).isLessThan(previous).isPositive();
            previous = r;
        }
        assertThat(CacheModel.reloadBytes(256 * c, c, 0)).isCloseTo(c / (2.0 * 256), within(c * 1e-4));
        // what is still resident is not owed again; a full cache owes nothing
        assertThat(CacheModel.reloadBytes(2 * c, c, c / 2)).isLessThan(CacheModel.reloadBytes(2 * c, c, 0));
        assertThat(CacheModel.reloadBytes(2 * c, c, c)).isZero();
    }

    @Test
    void aRefillFromMemoryIsNoFasterThanTheNodesBandwidth() {
        CostModel c = costs(2048);
        Topology slow = new Topology(host(8192).pcpus(), 2, 2, 1, 2, new int[][] {{10, 21}, {21, 10}},
                new double[] {1e4, 2_500}, new long[] {1024, 1024}, 8192, 256, 32);
        CacheModel caches = new CacheModel(slow, c);
        caches.switchIn(0, 0, false, -1, 0);
        // to socket 1, whose node delivers 2,500 MB/s, below memoryRefillMBps (10,000): the 2 MiB take 4x longer
        assertThat(caches.switchIn(0, 2, true, -1, 1_000)).isCloseTo(nanos(2048 * KIB, 2_500), within(1L));
        // back on socket 0 (10,000 MB/s) after the LLC there lost it to another vCPU: the cost model's rate
        caches.switchIn(1, 0, false, 8192, 2_000_000);
        assertThat(caches.switchIn(0, 0, true, -1, 3_000_000)).isCloseTo(nanos(2048 * KIB, c.memoryRefillMBps()), within(1L));
    }

    @Test
    void aSmallWorkingSetEvictsLittleAndMovesAcrossSocketsFromMemory() {
        CostModel c = costs(2048);
        CacheModel caches = new CacheModel(host(8192), c);
        caches.switchIn(0, 0, false, -1, 0);
        caches.switchIn(1, 0, false, 64, 1_000); // a 64 KiB housekeeping burst on the same core
        // 256 KiB L2 minus the 64 KiB on top: 192 KiB of ours survive; of the 64 KiB lost only the extra misses
        // of a 2 MiB set (it misses 7/8 of its L2 references even alone) refill from the LLC
        double extra = 64 * KIB - (2048 - 256) * KIB * Math.log((2048.0 - 192) / (2048 - 256));
        assertThat(caches.switchIn(0, 0, true, -1, 2_000)).isCloseTo(nanos(Math.round(extra), c.llcRefillMBps()), within(1L));
        // a set that fits the L2 refills all it lost
        CacheModel fits = new CacheModel(host(8192), costs(128));
        fits.switchIn(0, 0, false, -1, 0);
        fits.switchIn(1, 0, false, 192, 1_000);
        assertThat(fits.switchIn(0, 0, true, -1, 2_000)).isEqualTo(nanos(64 * KIB, c.llcRefillMBps()));
        // to the other socket: its LLC has none of the 2 MiB, refilled from memory (the L2 with it)
        assertThat(caches.switchIn(0, 2, true, -1, 3_000)).isEqualTo(nanos(2048 * KIB, c.memoryRefillMBps()));
    }

    @Test
    void aVcpuSwitchedOutBeforeItsRefillEndsKeepsOnlyWhatItRefilled() {
        CostModel c = costs(2048);
        CacheModel caches = new CacheModel(host(8192), c);
        caches.switchIn(0, 0, false, -1, 0);
        long full = caches.switchIn(0, 2, true, -1, 1_000); // cross-socket: the whole 2 MiB from memory
        caches.switchOut(0, 2, 1_000 + full / 2); // half paid
        caches.switchIn(0, 0, true, -1, 2 * full); // back: socket 0 still holds it all
        // returning to socket 1, half of the set is there: half the memory refill is owed
        assertThat(caches.switchIn(0, 2, true, -1, 3 * full)).isCloseTo(full / 2, org.assertj.core.api.Assertions.within(2L));
    }

    @Test
    void progressDuringTheRefillStretchesItByOneOverOneMinusTheFraction() {
        long debt = nanos(2048 * KIB, costs(2048).memoryRefillMBps()); // cross-socket: 2 MiB from memory
        for (double rho : new double[] {0.0, 0.5, 0.9}) {
            CacheModel caches = new CacheModel(host(8192), costs(2048, rho));
            caches.switchIn(0, 0, false, -1, 0);
            long refill = caches.switchIn(0, 2, true, -1, 1_000);
            // at rho of full speed for debt / (1 - rho), the run does rho x refill of work and loses the debt
            assertThat(refill).as("rho %s", rho).isCloseTo(Math.round(debt / (1 - rho)), within(1L));
            assertThat(refill - rho * refill).as("rho %s: time lost", rho).isCloseTo(debt, within(1.0));
        }
    }

    @Test
    void aSwitchOutHalfwayThroughAStretchedRefillKeepsHalfTheSet() {
        CacheModel caches = new CacheModel(host(8192), costs(2048, 0.5));
        caches.switchIn(0, 0, false, -1, 0);
        long refill = caches.switchIn(0, 2, true, -1, 1_000);
        caches.switchOut(0, 2, 1_000 + refill / 2); // half of the wall time of the (stretched) refill
        caches.switchIn(0, 0, true, -1, 2 * refill);
        assertThat(caches.switchIn(0, 2, true, -1, 3 * refill)).isCloseTo(refill / 2, within(2L));
    }
}
