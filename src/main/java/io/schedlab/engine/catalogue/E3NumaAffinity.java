package io.schedlab.engine.catalogue;

import static io.schedlab.engine.catalogue.Specs.experiment;
import static io.schedlab.engine.catalogue.Specs.host;
import static io.schedlab.engine.catalogue.Specs.policy;
import static io.schedlab.engine.catalogue.Specs.range;
import static io.schedlab.engine.catalogue.Specs.vm;
import static io.schedlab.engine.catalogue.Specs.workload;

import io.schedlab.engine.catalogue.ScenarioTable.RatioReference;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.ExperimentSpec.StopCondition;
import io.schedlab.engine.spec.HostSpec;
import io.schedlab.engine.spec.VmSpec;
import io.schedlab.engine.spec.WorkloadSpec;
import java.util.ArrayList;
import java.util.List;

/** E3: credit2 with hard and soft affinity on a NUMA host (set-up only). */
final class E3NumaAffinity {

    private E3NumaAffinity() {
    }

    static final List<String> E3_COLUMNS = List.of("no affinity", "pinning (hard)", "NUMA-aware (soft)");

    static Scenario build(boolean quick) {
        double seconds = quick ? 1 : 10;
        int repeats = quick ? 1 : 3;
        HostSpec host = Specs.numaHost(2, 4, 1, 8192);
        // The set-up's 2, 6, 10 guests with memory spread over the nodes, each thread moving a block larger
        // than the LLC (so it streams from its node), plus two cases not in the set-up: 6 guests whose memory
        // all sits on node 0, where soft affinity lets vCPUs spill to node 1 and pinning does not; and
        // sysbench's own defaults (1 KiB block: in L1), where the node does not matter at all.
        List<Integer> counts = List.of(2, 6, 10, 6, 6);
        List<String> rows = List.of("2 guests", "6 guests", "10 guests", "6 guests, memory all on node 0",
                E3_DEFAULTS_ROW);
        List<ScenarioRun> runs = new ArrayList<>();
        for (int i = 0; i < counts.size(); i++) {
            int n = counts.get(i);
            boolean lopsided = i == 3;
            WorkloadSpec sysbench = i == 4 ? workload("memory-bandwidth", "threads", 4) : streamingSysbench();
            for (int mode = 0; mode < 3; mode++) {
                List<VmSpec> vms = new ArrayList<>();
                List<String> names = new ArrayList<>();
                for (int g = 0; g < n; g++) {
                    int node = lopsided ? 0 : g % 2;
                    List<Integer> nodeCpus = range(node * 4, node * 4 + 4);
                    VmSpec v = Specs.withMemory(vm("guest" + (g + 1), 2, sysbench), 1024, node);
                    v = switch (mode) {
                        case 1 -> Specs.withHard(v, nodeCpus);
                        case 2 -> Specs.withSoft(v, nodeCpus);
                        default -> v;
                    };
                    vms.add(v);
                    names.add(v.name());
                }
                String label = rows.get(i) + ", " + E3_COLUMNS.get(mode);
                ExperimentSpec spec = experiment("E3 " + label, 3, StopCondition.DURATION, seconds, host,
                        policy("credit2"), vms, null);
                runs.add(new ScenarioRun(label, spec, repeats, List.of(new Measure(rows.get(i), E3_COLUMNS.get(mode),
                        Extractors.meanHeadline(names), null)), null));
            }
        }
        ScenarioTable table = new ScenarioTable("sysbench memory throughput, MB/s per guest (mean over guests, "
                + repeats + " run(s); higher is better)", "guests", rows, E3_COLUMNS, runs,
                RatioReference.column("no affinity"));
        List<ScenarioRun> auditRuns = new ArrayList<>();
        List<String> auditRows = List.of("credit2", "credit");
        for (String policyName : auditRows) {
            ExperimentSpec spec = Specs.withTrace(experiment("E3 affinity audit " + policyName, 3, StopCondition.DURATION,
                    seconds, host, policy(policyName), e3PinnedGuests(6), e3PinScript(6, seconds)), 10_000_000L);
            auditRuns.add(new ScenarioRun("affinity audit, " + policyName, spec, 1, List.of(
                    new Measure(policyName, "switch-ins checked",
                            Extractors.at("/" + ScenarioRunner.AUDIT_FIELD + "/checked", 1), null),
                    new Measure(policyName, "violations",
                            Extractors.at("/" + ScenarioRunner.AUDIT_FIELD + "/violations", 1), null)), null));
        }
        ScenarioTable audit = new ScenarioTable("hard affinity audit: 6 pinned guests; at 1/3 of the run every guest "
                + "is re-pinned to the other node, at 2/3 each guest's vCPU 0 to one pCPU; every switch-in checked "
                + "against the affinity in force (expected: 0 violations)", "policy", auditRows,
                List.of("switch-ins checked", "violations"), auditRuns, null);
        return new Scenario("E3", "credit2 with hard and soft affinity on a NUMA host (set-up only, no published numbers)",
                List.of("Host: 2 sockets x 4 cores, 2 NUMA nodes x 8 GB. Guests: 2 vCPUs, 1 GB each, memory on node "
                        + "(guest index mod 2);", "2, 6, 10 guests at once, each sysbench memory with 4 threads and a 64 MiB "
                        + "block (beyond the LLC: it streams from the node), "
                        + Specs.fmt(seconds) + " s; pinning = hard affinity to the memory's node, NUMA-aware = soft affinity "
                        + "to it."),
                "NUMA-aware (soft) >= pinning > no affinity while guests fit; the advantage shrinks as guests "
                        + "overcommit the host (10 guests = 20 vCPUs on 8 pCPUs)",
                List.of(table, audit));
    }

    static final String E3_DEFAULTS_ROW = "6 guests, sysbench defaults (1 KiB block, in L1)";
    /** --memory-block-size=64M: a block (one buffer, shared by the threads) far beyond the 8 MiB LLC. */
    static final int E3_BLOCK_KB = 65_536;

    private static WorkloadSpec streamingSysbench() {
        return workload("memory-bandwidth", "threads", 4, "blockKb", E3_BLOCK_KB);
    }

    private static List<VmSpec> e3PinnedGuests(int n) {
        List<VmSpec> vms = new ArrayList<>();
        for (int g = 0; g < n; g++) {
            int node = g % 2;
            vms.add(Specs.withHard(Specs.withMemory(vm("guest" + (g + 1), 2, streamingSysbench()),
                    1024, node), range(node * 4, node * 4 + 4)));
        }
        return vms;
    }

    /** The scripted vcpu-pin changes of the audit: all vCPUs to the other node at 1/3, vCPU 0 to one pCPU at 2/3. */
    private static List<io.schedlab.engine.spec.TimelineAction> e3PinScript(int n, double seconds) {
        List<io.schedlab.engine.spec.TimelineAction> script = new ArrayList<>();
        for (int g = 0; g < n; g++) {
            int other = 1 - g % 2;
            script.add(Specs.pin(seconds / 3, "guest" + (g + 1), null, range(other * 4, other * 4 + 4)));
        }
        for (int g = 0; g < n; g++) {
            int node = g % 2;
            script.add(Specs.pin(2 * seconds / 3, "guest" + (g + 1), 0, List.of(node * 4 + g % 4)));
        }
        return script;
    }

}
