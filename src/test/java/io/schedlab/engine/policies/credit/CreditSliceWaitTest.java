package io.schedlab.engine.policies.credit;

import static io.schedlab.engine.policies.PolicyRuns.loops;
import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.policies.PolicyRuns;
import io.schedlab.engine.policies.PolicyRuns.TraceRecord;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.assertj.core.data.Offset;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Xen 348dee3b8afb (credit's default slice 30 ms -> 5 ms, reverted the same day): behind one or two other
 * busy VMs on its pCPU a vCPU waits up to 60 ms with the 30 ms slice and about 10 ms with 5 ms, i.e. one
 * slice per VM ahead of it (csched_schedule runs the next vCPU for a whole tslice). Behind two VMs the model's
 * usual wait is that; a vCPU that the accounting (csched_acct) has just turned OVER waits one round more.
 */
class CreditSliceWaitTest {
    private static final double MS = 1e6;

    @ParameterizedTest(name = "{0} other VM(s), tslice {1} ms")
    @CsvSource({"1, 30", "2, 30", "1, 5", "2, 5"})
    void aBusyVcpuWaitsOneSliceForEveryOtherBusyVm(int others, int tsliceMs) {
        List<io.schedlab.engine.spec.VmSpec> vms = new ArrayList<>();
        for (int i = 0; i <= others; i++) {
            vms.add(loops("vm" + i, 256, 0, 1, 0));
        }
        List<TraceRecord> trace = PolicyRuns.trace("credit", Map.of("tsliceMs", tsliceMs), 1, 1, 1, 2.0, vms);
        List<Long> waits = waits(trace);
        assertThat(waits).hasSizeGreaterThan(2_000 / (tsliceMs * (others + 1)) - 5);
        Collections.sort(waits);
        // the usual wait: one slice for each VM ahead (60 ms / 10 ms behind two)
        assertThat(waits.get(waits.size() / 2) / MS).isCloseTo(others * tsliceMs, Offset.offset(0.05 * tsliceMs));
        // every wait is whole slices (a busy vCPU runs its full tslice); at most one more than the VMs ahead: a
        // vCPU that csched_acct turns OVER goes behind the UNDER one(s) for a round
        for (long w : waits) {
            double slices = w / MS / tsliceMs;
            assertThat(slices).isCloseTo(Math.rint(slices), Offset.offset(0.05));
            assertThat(Math.rint(slices)).isBetween(1.0, others == 1 ? 1.0 : others + 1.0);
        }
    }

    /** Every time a VM spent between leaving the one pCPU and running on it again. */
    private static List<Long> waits(List<TraceRecord> trace) {
        Map<String, Long> left = new HashMap<>();
        List<Long> waits = new ArrayList<>();
        String current = null;
        for (TraceRecord r : trace) {
            if (!r.event().equals("switch")) {
                continue;
            }
            if (current != null) {
                left.put(current, r.timeNanos());
            }
            current = r.vm();
            if (current != null && left.containsKey(current)) {
                waits.add(r.timeNanos() - left.get(current));
            }
        }
        return waits;
    }
}
