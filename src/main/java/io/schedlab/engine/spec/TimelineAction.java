package io.schedlab.engine.spec;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.List;
import java.util.Map;

/**
 * An action applied at simulated time {@code atSeconds}, in the spirit of {@code xl}
 * commands: {@code pin} (hard affinity; {@code vcpu-pin}), {@code unpin}, {@code soft-affinity},
 * {@code set-weight}, {@code set-cap} ({@code sched-credit -w/-c}), {@code create-vm} (with
 * {@code newVm}), {@code shutdown}, {@code set-sched-params} (the policy's per-VM parameters, or with
 * {@code vcpu} one vCPU's, from {@code params}). A null {@code vcpu} means every vCPU of the VM.
 */
public record TimelineAction(
        Double atSeconds,
        Kind action,
        String vm,
        Integer vcpu,
        List<Integer> pcpus,
        Integer weight,
        Integer cap,
        VmSpec newVm,
        Map<String, Object> params) {

    /** An action without scheduling parameters. */
    public TimelineAction(Double atSeconds, Kind action, String vm, Integer vcpu, List<Integer> pcpus, Integer weight,
            Integer cap, VmSpec newVm) {
        this(atSeconds, action, vm, vcpu, pcpus, weight, cap, newVm, null);
    }

    /** The kinds of timeline action. */
    public enum Kind {
        PIN, UNPIN, SOFT_AFFINITY, SET_WEIGHT, SET_CAP, CREATE_VM, SHUTDOWN, SET_SCHED_PARAMS;

        /** JSON form: lower-case kebab ({@code "soft-affinity"}). */
        @JsonValue
        public String json() {
            return SpecEnums.toJson(this);
        }

        /** Accepts {@code "soft-affinity"}, {@code "SOFT_AFFINITY"} and other case/dash variants. */
        @JsonCreator
        public static Kind fromJson(String value) {
            return SpecEnums.fromJson(Kind.class, value);
        }
    }
}
