package io.schedlab.engine.catalogue;

import static io.schedlab.engine.catalogue.Specs.experiment;
import static io.schedlab.engine.catalogue.Specs.policy;
import static io.schedlab.engine.catalogue.Specs.range;
import static io.schedlab.engine.catalogue.Specs.vm;
import static io.schedlab.engine.catalogue.Specs.workload;

import io.schedlab.engine.catalogue.ScenarioTable.RatioReference;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.ExperimentSpec.StopCondition;
import io.schedlab.engine.spec.HostSpec;
import io.schedlab.engine.spec.NumaNodeSpec;
import io.schedlab.engine.spec.SpecNormalizer;
import io.schedlab.engine.spec.VmSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * V2: Xen guest memory placement, numa=on vs numa=off. Xen 22b984ae9a41 ("xen: turn numa=on by default",
 * Andre Przywara, 2009-12-01): an 8-node host of 4 cores per node, a kernel compile in tmpfs in guests of 2 GB,
 * 1, 7, 15 and 23 guests at once, of 1 vCPU (make) and of 2 vCPUs (make -j2). With numa=off Xen sees one node
 * covering all memory and its buddy allocator hands out the physical memory from the top down, so consecutive
 * guests fill it contiguously and share the memory controllers of a few nodes ({@link #numaOffNode}), while
 * credit runs their vCPUs anywhere; with numa=on xend pins each guest to the least loaded node
 * (tools/python/xen/xend/XendDomainInfo.py _setCPUAffinity, find_relaxed_node, at that commit) and Xen
 * allocates its memory there.
 * <p>
 * The host's memory constants come from the same commit's lmbench rd figures (normalized to native = 100), not
 * from the compile cells: one numa=off guest alone reads at 78.0 where a node-local one reads at 102.3, and
 * numa=off guests together saturate at about half the bandwidth node-local guests reach.
 */
final class V2NumaPlacement {

    static final List<String> COLUMNS = List.of("numa=off", "numa=on");
    static final int[] GUESTS = {1, 7, 15, 23};
    static final int[] VCPUS = {1, 2};
    static final int NODES = 8;
    static final int CORES_PER_NODE = 4;
    /** Guests of 2 GB (the commit's set-up). */
    static final int GUEST_MEMORY_MB = 2048;
    /**
     * Node memory: the smallest power of two that holds the 23 guests' 46 GB on 8 nodes (8 x 4 GB would not).
     * UNVERIFIED: the commit does not give the host's memory. With numa=off it decides how many guests share a
     * node ({@link #numaOffNode}): 4 at 8 GB a node, 8 at 16 GB.
     */
    static final int NODE_MEMORY_MB = 8_192;
    /** Published elapsed seconds [vcpus row][guests][off, on] (22b984ae9a41 commit message). */
    static final double[][][] PUBLISHED = {
            {{480.610, 464.320}, {482.109, 461.721}, {515.297, 477.669}, {548.427, 495.180}},
            {{264.580, 261.690}, {279.763, 258.907}, {330.385, 272.762}, {463.510, 390.547}}};
    /**
     * SLIT distance between any two nodes: one striped stream alone runs at 8 / (1 + 7 x d / 10) of a local one
     * (the model's 10 / distance remote factor); lmbench rd's 78.0 / 102.3 = 0.76 gives d = 13.6, rounded to the
     * nearest SLIT integer 14 (0.74). The commit does not give the host's SLIT.
     */
    static final int REMOTE_DISTANCE = 14;
    /**
     * numa=off guests together saturate at about half the bandwidth node-local ones do (lmbench rd at 15 and 23
     * guests: 15 x 25.8 = 387 and 23 x 17.5 = 403 against 15 x 48.7 = 731 and 23 x 28.0 = 644, 0.53 and 0.63).
     * A numa=off guest's vCPUs run on any of the 8 nodes, so 7/8 of its traffic is remote, as if striped: per node
     * the links get half the node's bandwidth times 7/8.
     */
    static final double STRIPED_SATURATION_FRACTION = 0.5;
    /**
     * Share of a compile job's CPU time that streams from guest memory: UNVERIFIED model choice; the commit gives
     * no memory-bound share of its tmpfs compile.
     */
    static final double COMPILE_MEMORY_SHARE = 0.1;

    private V2NumaPlacement() {
    }

    static List<String> rows() {
        List<String> rows = new ArrayList<>();
        for (int v : VCPUS) {
            for (int g : GUESTS) {
                rows.add(rowName(v, g));
            }
        }
        return rows;
    }

    static String rowName(int vcpus, int guests) {
        return (vcpus == 1 ? "1 vCPU" : vcpus + " vCPUs") + ", " + guests + (guests == 1 ? " guest" : " guests");
    }

    static double interconnectMBps() {
        return STRIPED_SATURATION_FRACTION * SpecNormalizer.DEFAULT_NODE_BANDWIDTH_MBPS * (NODES - 1) / NODES;
    }

    /**
     * The node holding guest {@code guest}'s memory (guests created in order, 0-based) with numa=off. Xen
     * 22b984ae9a41 then sets up one dummy node covering all memory (xen/arch/x86/numa.c numa_initmem_init), so
     * alloc_heap_pages (xen/common/page_alloc.c at that commit) serves every guest from the highest zone that has
     * free pages (zones are the power-of-two address ranges, page_to_zone = fls(mfn) - 1), taking the head of
     * the smallest free list that fits. init_heap_pages frees the boot memory in ascending address order onto
     * the tails of the lists, and a split chunk's remainder goes back on a list before the next request, so the
     * allocations fill each zone contiguously from its lowest address: a 2 GB guest lies on one node (node
     * boundaries are multiples of its size), the next guests beside it. Dom0's and Xen's own memory are left out
     * (the commit does not give dom0's size); the node is the one holding the guest's first page.
     */
    static int numaOffNode(int guest) {
        long hostMb = (long) NODES * NODE_MEMORY_MB;
        long skip = (long) guest * GUEST_MEMORY_MB;
        long top = hostMb;
        while (top > 0) {
            long zoneBase = Long.highestOneBit(top - 1); // the highest zone below top starts at a power of two
            if (zoneBase == top) {
                zoneBase = top / 2;
            }
            long size = top - zoneBase;
            if (skip < size) {
                return (int) ((zoneBase + skip) / NODE_MEMORY_MB);
            }
            skip -= size;
            top = zoneBase;
        }
        throw new IllegalArgumentException("guest " + guest + " does not fit in the host's memory");
    }

    static HostSpec host() {
        List<NumaNodeSpec> nodes = new ArrayList<>();
        List<List<Integer>> distance = new ArrayList<>();
        for (int n = 0; n < NODES; n++) {
            nodes.add(new NumaNodeSpec(List.of(n), NODE_MEMORY_MB, null));
            List<Integer> row = new ArrayList<>();
            for (int m = 0; m < NODES; m++) {
                row.add(n == m ? 10 : REMOTE_DISTANCE);
            }
            distance.add(row);
        }
        return new HostSpec(NODES, CORES_PER_NODE, 1, nodes, distance, null, null);
    }

    static Scenario build(boolean quick) {
        int jobs = quick ? 100 : 1000;
        double tailMs = quick ? 600 : 6000;
        List<String> rows = rows();
        List<ScenarioRun> runs = new ArrayList<>();
        for (int vi = 0; vi < VCPUS.length; vi++) {
            for (int gi = 0; gi < GUESTS.length; gi++) {
                String row = rowName(VCPUS[vi], GUESTS[gi]);
                for (int c = 0; c < COLUMNS.size(); c++) {
                    boolean numaOn = c == 1;
                    List<VmSpec> vms = new ArrayList<>();
                    List<String> names = new ArrayList<>();
                    for (int g = 0; g < GUESTS[gi]; g++) {
                        int node = g % NODES;
                        VmSpec v = Specs.withMemory(vm("guest" + (g + 1), VCPUS[vi], workload("parallel-build",
                                "parallelism", VCPUS[vi], "jobs", jobs, "serialTailMs", tailMs, "memoryShare",
                                COMPILE_MEMORY_SHARE)), GUEST_MEMORY_MB, numaOn ? node : numaOffNode(g));
                        if (numaOn) {
                            v = Specs.withHard(v, range(node * CORES_PER_NODE, (node + 1) * CORES_PER_NODE));
                        }
                        vms.add(v);
                        names.add(v.name());
                    }
                    String label = row + ", " + COLUMNS.get(c);
                    ExperimentSpec spec = experiment("V2 " + label, 1, StopCondition.ALL_COMPLETE, quick ? 60 : 600,
                            host(), policy("credit"), vms, null);
                    spec = new ExperimentSpec(spec.name(), spec.labels(), spec.seed(), spec.durationSeconds(),
                            spec.stopWhen(), spec.host(), spec.scheduler(),
                            Map.of("interconnectMBps", interconnectMBps()), spec.vms(), spec.timeline(), spec.trace());
                    runs.add(new ScenarioRun(label, spec, quick ? 1 : 3, List.of(new Measure(row, COLUMNS.get(c),
                            Extractors.meanHeadline(names), PUBLISHED[vi][gi][c])), null));
                }
            }
        }
        ScenarioTable table = new ScenarioTable("kernel compile elapsed seconds, mean over guests (lower is better);"
                + " pub: s" + (quick ? " [quick: " + jobs + " jobs]" : ""), "guests", rows, COLUMNS, runs,
                RatioReference.column(COLUMNS.get(0)));
        return new Scenario("V2", "NUMA placement, numa=on vs numa=off (Xen 22b984ae9a41)",
                List.of("Host: 8 nodes x 4 cores (one socket per node), SLIT distance " + REMOTE_DISTANCE
                                + " between nodes and links of " + Specs.fmt(interconnectMBps()) + " MB/s per node"
                                + " (both from the commit's lmbench rd figures), node bandwidth the model's default;"
                                + " credit with its defaults (the commit does not say more).",
                        "Guests of 2 GB running a parallel-build of " + jobs + " jobs (make, or make -j2 with 2"
                                + " vCPUs), " + Specs.fmt(COMPILE_MEMORY_SHARE) + " of each job's CPU time streaming"
                                + " from guest memory (UNVERIFIED). numa=off: no affinity, and Xen's allocator fills"
                                + " memory from the top down, so with " + NODE_MEMORY_MB / 1024 + " GB a node"
                                + " (UNVERIFIED) guests 1-4 share node 4's memory, 5-8 node 5, 9-12 node 6, 13-16"
                                + " node 7, 17-20 node 2, 21-23 node 3 (dom0's memory left out); numa=on: guest g"
                                + " pinned to node g mod 8 with its memory there."),
                "numa=on is faster and the gain grows with load: 1-4% at one guest, 10-17% at 15-23 guests",
                List.of(table));
    }
}
