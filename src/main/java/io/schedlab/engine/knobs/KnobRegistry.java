package io.schedlab.engine.knobs;

import io.schedlab.engine.costs.CostModel;
import io.schedlab.engine.params.ParameterSpec;
import io.schedlab.engine.params.Params;
import io.schedlab.engine.registry.PolicyDescriptor;
import io.schedlab.engine.registry.Registry;
import io.schedlab.engine.spec.ParameterValues;
import io.schedlab.engine.spec.SpecNormalizer;
import io.schedlab.engine.workloads.WorkloadDescriptor;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The one list of calibration knobs: every parameter of the cost model, a policy or a workload whose
 * declared source marks its default UNVERIFIED, and the host's default memory bandwidth per NUMA node.
 * Defaults and sources are read from the declarations themselves ({@link ParameterSpec}), so the
 * registry cannot drift from them; the reader classes of cost knobs are listed here.
 */
public final class KnobRegistry {

    /** The word in a parameter's source that makes its default a knob. */
    public static final String MARK = "unverified";

    /** Source of the host's default node bandwidth ({@link SpecNormalizer#DEFAULT_NODE_BANDWIDTH_MBPS}). */
    public static final String NODE_BANDWIDTH_SOURCE = "calibration knob, UNVERIFIED: a Xeon X5570 socket's three"
            + " DDR3-1333 channels peak at ~32 GB/s; what guests' streams get is lower and varies; it also caps the"
            + " cache refill rate (memoryRefillMBps); E2's 2005 host gives its own, 6,400 (one 800 MT/s front-side"
            + " bus)";

    /** Name of the node-bandwidth knob, as docs/fidelity.md lists it. */
    public static final String NODE_BANDWIDTH = "host.numaNodes[].bandwidthMBps";

    /** Classes that read each cost knob (through {@link CostModel}'s accessor of the same name). */
    private static final Map<String, List<String>> COST_READERS = Map.ofEntries(
            Map.entry("decisionBaseNanos", List.of("sim.LockModel (CostModel.decisionHoldNanos)")),
            Map.entry("lockHoldPerSharerNanos", List.of("sim.LockModel (CostModel.decisionHoldNanos)")),
            Map.entry("contextSavedNanos", List.of("sim.LockModel")),
            Map.entry("ipiLatencyNanos", List.of("sim.Simulator")),
            Map.entry("streamBandwidthMBps", List.of("sim.Progress")),
            Map.entry("coldCacheWorkingSetKb", List.of("sim.CacheModel", "workloads.Workload (default working set)")),
            Map.entry("l2BandwidthMBps", List.of("sim.GuestKernel", "workloads.MemoryHierarchy")),
            Map.entry("llcBandwidthMBps", List.of("sim.GuestKernel", "workloads.MemoryHierarchy")),
            Map.entry("rendezvousNanos", List.of("sim.Simulator", "policies.coresched.UnitScheduler")),
            Map.entry("lockBaseNanos", List.of("sim.LockModel")),
            Map.entry("lockPerEntryNanos", List.of("sim.LockModel", "policies.LockWork")));

    private final List<Knob> knobs;

    private KnobRegistry(List<Knob> knobs) {
        this.knobs = List.copyOf(knobs);
    }

    /** The knobs of the cost model, the host and every policy and workload of {@code registry}. */
    public static KnobRegistry of(Registry registry) {
        List<Knob> out = new ArrayList<>();
        for (ParameterSpec p : CostModel.parameters()) {
            if (marked(p)) {
                out.add(knob("costs." + p.name(), Knob.Where.COSTS, null, p,
                        COST_READERS.getOrDefault(p.name(), List.of("costs.CostModel"))));
            }
        }
        out.add(new Knob(NODE_BANDWIDTH, Knob.Where.NODE_BANDWIDTH, null, "bandwidthMBps",
                SpecNormalizer.DEFAULT_NODE_BANDWIDTH_MBPS, 1, 1_000_000, false, "MB/s", NODE_BANDWIDTH_SOURCE,
                List.of("sim.TopologyBuilder", "sim.CacheModel")));
        for (PolicyDescriptor d : registry.policies()) {
            for (ParameterSpec p : d.parameters()) {
                if (marked(p)) {
                    out.add(knob(d.name() + "." + p.name(), Knob.Where.SCHEDULER, d.name(), p,
                            List.of("policy " + d.name())));
                }
            }
        }
        for (WorkloadDescriptor w : registry.workloads()) {
            for (ParameterSpec p : w.parameters()) {
                if (marked(p)) {
                    out.add(knob(w.type() + "." + p.name(), Knob.Where.WORKLOAD, w.type(), p,
                            List.of(workloadClass(w))));
                }
            }
        }
        return new KnobRegistry(out);
    }

    /** Every knob, cost model first, then the host, the policies and the workloads. */
    public List<Knob> knobs() {
        return knobs;
    }

    /** The knob of this name. */
    public Optional<Knob> byName(String name) {
        return knobs.stream().filter(k -> k.name().equals(name)).findFirst();
    }

    /** The knob of this name, or an IllegalArgumentException naming the known ones. */
    public Knob require(String name) {
        return byName(name).orElseThrow(() -> new IllegalArgumentException("unknown knob '" + name + "'; known: "
                + String.join(", ", knobs.stream().map(Knob::name).toList())));
    }

    private static boolean marked(ParameterSpec p) {
        return p.source() != null && p.source().toLowerCase(Locale.ROOT).contains(MARK)
                && p.defaultValue() instanceof Number
                && (p.type() == ParameterSpec.Type.INTEGER || p.type() == ParameterSpec.Type.NUMBER);
    }

    private static Knob knob(String name, Knob.Where where, String owner, ParameterSpec p, List<String> readers) {
        return new Knob(name, where, owner, p.name(), ((Number) p.defaultValue()).doubleValue(),
                p.min() == null ? 0 : p.min(), p.max() == null ? Double.MAX_VALUE : p.max(),
                p.type() == ParameterSpec.Type.INTEGER, p.unit(), p.source(), readers);
    }

    /** The simple name of the class a workload type's factory builds from its defaults (the class reading its knobs). */
    private static String workloadClass(WorkloadDescriptor w) {
        try {
            return "workloads." + w.factory().apply(new Params(ParameterValues.normalize(Map.of(), w.parameters())))
                    .getClass().getSimpleName();
        } catch (RuntimeException e) {
            return "workload " + w.type();
        }
    }
}
