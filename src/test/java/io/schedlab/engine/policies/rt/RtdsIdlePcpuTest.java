package io.schedlab.engine.policies.rt;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.Validation;
import io.schedlab.engine.run.RunControl;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.HostSpec;
import io.schedlab.engine.spec.Limits;
import io.schedlab.engine.spec.SchedulerSpec;
import io.schedlab.engine.spec.TraceSpec;
import io.schedlab.engine.spec.VmSpec;
import io.schedlab.engine.spec.WorkloadSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Xen de8b2f49d724 ("rtds: only tickle non-already tickled CPUs"): before it, vCPUs waking together with the
 * same previous pCPU all tickled that one pCPU and could wait a period while others idled. After it, no runnable
 * vCPU with budget waits while a pCPU is idle (beyond the tickle's IPI and the switch).
 */
class RtdsIdlePcpuTest {
    /**
     * Longest a runnable vCPU may wait while some pCPU idles: the tickle's IPI (costs.ipiLatencyNanos, 1 us),
     * the decision and the context switch (a few us in the default cost model), with room to spare; the
     * failure the commit fixed is a wait of up to a period (10 ms).
     */
    private static final long BOUND_NANOS = 50_000;

    @Test
    void vcpusWakingTogetherFromOnePcpuNeverWaitWhileAnotherIdles() {
        List<VmSpec> vms = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            // rt-app's default task: 1 ms of work every 10 ms, all released at 0; every vCPU starts on pCPU 0;
            // the default server (4 ms / 10 ms, extratime) always has budget for it
            vms.add(new VmSpec("v" + i, 1, null, null, null, null, null, null, null, List.of(0), null,
                    new WorkloadSpec("rt-app", Map.of())));
        }
        ExperimentSpec raw = new ExperimentSpec("rt", null, 3L, 1.0, ExperimentSpec.StopCondition.DURATION,
                new HostSpec(1, 4, 1, null, null, null, null), new SchedulerSpec("rtds", null), null, vms, null,
                new TraceSpec(true, 1_000_000L));
        Validation v = RtRuns.ENGINE.validate(raw, Limits.defaults());
        assertThat(v.violations()).isEmpty();
        IdleWhileWaiting check = new IdleWhileWaiting(4);
        RtRuns.ENGINE.run(v.normalized(), Limits.defaults(), RunControl.tracingTo(check::record));
        assertThat(check.wakes).isGreaterThanOrEqualTo(4 * 99);
        assertThat(check.longest).isLessThanOrEqualTo(BOUND_NANOS);
    }

    /** Follows the trace: the longest time one runnable vCPU waited while at least one pCPU was idle. */
    private static final class IdleWhileWaiting {
        private final String[] running;
        private final Map<String, Long> waitingIdle = new HashMap<>();
        private final java.util.Set<String> blocked = new java.util.HashSet<>();
        private long last;
        long longest;
        int wakes;

        IdleWhileWaiting(int pcpus) {
            running = new String[pcpus];
        }

        void record(long time, int pcpu, String event, String vm, int vcpu) {
            boolean anyIdle = false;
            for (String r : running) {
                anyIdle |= r == null;
            }
            if (anyIdle) {
                for (Map.Entry<String, Long> e : waitingIdle.entrySet()) {
                    e.setValue(e.getValue() + time - last);
                    longest = Math.max(longest, e.getValue());
                }
            }
            last = time;
            String key = vm + "/" + vcpu;
            switch (event) {
                case "wake" -> {
                    wakes++;
                    blocked.remove(key);
                    waitingIdle.put(key, 0L);
                }
                case "block" -> {
                    blocked.add(key);
                    waitingIdle.remove(key);
                }
                case "switch" -> {
                    String prev = running[pcpu];
                    if (prev != null && !prev.equals(key) && !blocked.contains(prev)) {
                        waitingIdle.putIfAbsent(prev, 0L); // switched away still runnable
                    }
                    running[pcpu] = vm == null ? null : key;
                    if (vm != null) {
                        waitingIdle.remove(key);
                    }
                }
                default -> {
                }
            }
        }
    }
}
