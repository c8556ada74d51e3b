package io.schedlab.engine.output;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * Where a VM's vCPUs started and what put them there.
 *
 * @param rule the VM's placementRule: hypervisor-default, round-robin or explicit
 * @param pcpus the pCPU of each vCPU at creation (v->processor), vCPU 0 first
 * @param release the release whose creation rule applied (e.g. "Xen 4.6"); hypervisor-default only
 * @param creation how the rule placed vCPU 0 and the others
 * @param insertPick the scheduler's insert hook that re-picks each vCPU's pCPU when it is first queued, if any
 * @param source the source file and function of the rule; hypervisor-default only
 */
public record InitialPlacementResult(String rule, List<Integer> pcpus,
        @JsonInclude(JsonInclude.Include.NON_NULL) String release, String creation,
        @JsonInclude(JsonInclude.Include.NON_NULL) String insertPick,
        @JsonInclude(JsonInclude.Include.NON_NULL) String source) {
}
