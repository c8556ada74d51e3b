package io.schedlab.engine.catalogue;

import static io.schedlab.engine.catalogue.Specs.experiment;
import static io.schedlab.engine.catalogue.Specs.host;
import static io.schedlab.engine.catalogue.Specs.policy;
import static io.schedlab.engine.catalogue.Specs.vm;
import static io.schedlab.engine.catalogue.Specs.withHard;
import static io.schedlab.engine.catalogue.Specs.workload;

import io.schedlab.engine.catalogue.ScenarioTable.RatioReference;
import io.schedlab.engine.spec.ExperimentSpec.StopCondition;
import io.schedlab.engine.spec.VmSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * V1: credit's BOOST given to a vCPU that was only being migrated. Xen f02a5760c75c ("credit1: on vCPU wakeup,
 * kick away current only if makes sense", 2015-11-02) and 66c7449a4dae ("credit1: avoid boosting vCPUs being
 * just migrated", 2016-02-29), both in 4.7.0: VM-I/O (1 vCPU, netperf) and VM-CPU (1 vCPU, busy loop) pinned to
 * one pCPU; netperf alone 806.64 Mbit/s, with the hog 166.50 before the fix, 731.66 after (alone 807.18).
 * <p>
 * The guest receives a TCP stream over a gigabit link through its netfront RX ring: while its vCPU does not run
 * the ring fills and the sender stops, so at most one ring of frames is in flight. Modelled with the
 * request-response workload: one connection per ring slot (256: Linux drivers/net/xen-netfront.c
 * NET_RX_RING_SIZE = __CONST_RING_SIZE(xen_netif_rx, 4096)), one 1500-byte frame (the Ethernet MTU) per
 * transaction, a 1000 Mbit/s link (IEEE 802.3ab), the workload's default round trip.
 */
final class V1CreditMigrationBoost {

    static final List<String> COLUMNS = List.of("netperf alone", "netperf + CPU hog");
    static final List<String> ROWS = List.of("before the fix (Xen 4.6)", "after the fix (Xen 4.7)");
    static final List<String> VERSIONS = List.of("4.6", "4.7");
    /** Published Mbit/s (f02a5760c75c commit message): alone, with the hog; before, after. */
    static final double[][] PUBLISHED = {{806.64, 166.50}, {807.18, 731.66}};
    /** netfront RX ring slots: NET_RX_RING_SIZE with 4 KiB pages (xen-netfront.c). */
    static final int RX_RING_SLOTS = 256;
    /** One Ethernet frame's payload at the standard MTU. */
    static final int FRAME_BYTES = 1500;
    /** Gigabit Ethernet. */
    static final double LINK_MBPS = 1000;
    /**
     * Guest CPU per received frame (netfront, TCP receive, the ACK), us: UNVERIFIED, a few microseconds per
     * frame; the post does not give the guest's CPU use.
     */
    static final double FRAME_SERVICE_US = 5;
    /**
     * Spread of the per-frame cost (coefficient of variation): UNVERIFIED. Frames do not cost the same (the
     * receiver acknowledges every second full-sized segment, RFC 1122 4.2.3.2; interrupts batch frames), and a
     * spread makes the seeds differ, so the scorecard can tell a transient from a converged effect.
     */
    static final double FRAME_SERVICE_CV = 0.5;

    /**
     * VM-I/O starts this long after VM-CPU: netperf measures beside a busy loop that is already running. One
     * credit accounting period (CSCHED_TICKS_PER_ACCT 3 x CSCHED_MSECS_PER_TICK 10, xen/common/sched_credit.c at
     * 4.6 and 4.7): by then the hog's tick has dropped the BOOST its first wake-up gave it (csched_vcpu_acct).
     * Started together, both vCPUs wake boosted and VM-I/O's first wake-up waits out the hog's whole 30 ms slice,
     * a start-up loss that shrinks with the run's length and is no part of the published measurement.
     */
    static final double HOG_HEAD_START_SECONDS = 0.03;

    private V1CreditMigrationBoost() {
    }

    static Scenario build(boolean quick) {
        double seconds = quick ? 0.5 : 2;
        List<ScenarioRun> runs = new ArrayList<>();
        for (int r = 0; r < ROWS.size(); r++) {
            for (int c = 0; c < COLUMNS.size(); c++) {
                List<VmSpec> vms = new ArrayList<>();
                vms.add(Specs.startingAt(withHard(vm("vm-io", 1, workload("request-response", "connections",
                        RX_RING_SLOTS, "transactionBytes", FRAME_BYTES, "linkMbps", LINK_MBPS, "serviceUs",
                        FRAME_SERVICE_US, "serviceCv", FRAME_SERVICE_CV)), List.of(1)), HOG_HEAD_START_SECONDS));
                if (c == 1) {
                    vms.add(withHard(vm("vm-cpu", 1, workload("cpu-loop", "threads", 1, "workSeconds", 0)),
                            List.of(1)));
                }
                String label = ROWS.get(r) + ", " + COLUMNS.get(c);
                runs.add(new ScenarioRun(label, experiment("V1 " + label, 1, StopCondition.DURATION, seconds,
                        host(1, 2, 1), policy("credit", "xenVersion", VERSIONS.get(r)), vms, null), quick ? 1 : 3,
                        List.of(new Measure(ROWS.get(r), COLUMNS.get(c), Extractors.vmHeadline("vm-io"),
                                PUBLISHED[r][c])), null));
            }
        }
        ScenarioTable table = new ScenarioTable("netperf throughput of VM-I/O, Mbit/s (higher is better); pub: Mbit/s"
                + (quick ? " [quick: " + Specs.fmt(seconds) + " s]" : ""), "release", ROWS, COLUMNS, runs,
                RatioReference.column(COLUMNS.get(0)));
        return new Scenario("V1", "credit BOOST given to a vCPU only being migrated (Xen f02a5760c75c, 66c7449a4dae)",
                List.of("Host: 1 socket x 2 cores, credit with xenVersion 4.6 (before both fixes) or 4.7 (after);"
                                + " VM-I/O and VM-CPU pinned to pCPU 1, pCPU 0 idle (the post gives no host size: an"
                                + " idle pCPU exists on any real host, and the kick-away path needs one). "
                                + Specs.fmt(seconds) + " s; VM-I/O starts " + Specs.fmt(HOG_HEAD_START_SECONDS)
                                + " s after VM-CPU (one credit accounting period), its throughput counted from"
                                + " its start.",
                        "VM-I/O: request-response with " + RX_RING_SLOTS + " connections (netfront RX ring slots), "
                                + FRAME_BYTES + "-byte frames, a " + Specs.fmt(LINK_MBPS) + " Mbit/s link, "
                                + Specs.fmt(FRAME_SERVICE_US) + " us of guest CPU per frame (cv "
                                + Specs.fmt(FRAME_SERVICE_CV) + "; both UNVERIFIED) and the"
                                + " workload's default round trip; VM-CPU: an endless cpu-loop."),
                "with the hog, throughput falls to ~0.2 of alone before the fix and stays ~0.9 after it",
                List.of(table));
    }
}
