package io.schedlab.engine.policies.coresched;

import io.schedlab.engine.params.ParameterSpec;
import java.util.List;
import java.util.Locale;

/**
 * Xen's scheduling granularity (boot option {@code sched-gran}, xen/common/sched/cpupool.c
 * sched_select_granularity / cpupool_check_granularity, Xen 4.13+): how many sibling pCPUs form
 * one scheduling resource. {@code cpu}: each pCPU alone (the default, as before 4.13); {@code core}:
 * the SMT siblings of a core (cpu_sibling_mask); {@code socket}: every pCPU of a socket (cpu_core_mask).
 */
public enum SchedGranularity {
    CPU, CORE, SOCKET;

    /** Name of the policy parameter. */
    public static final String PARAM = "schedGran";

    /** The parameter of credit and credit2. */
    public static ParameterSpec parameter() {
        return ParameterSpec.choice(PARAM, "cpu", List.of("cpu", "core", "socket"),
                "scheduling granularity: the sibling pCPUs of one core (socket) only run vCPUs of one domain at once,"
                        + " idle otherwise (needs Xen >= 4.13; a granularity with one usable pCPU per resource,"
                        + " e.g. core with SMT off, is the same as cpu)",
                "xen/common/sched/cpupool.c: sched-gran boot option (opt_sched_granularity), core scheduling by"
                        + " Juergen Gross ('xen: add core scheduling support', Xen 4.13)");
    }

    /** From a raw or normalized parameter value (absent = cpu); unknown names throw IllegalArgumentException. */
    public static SchedGranularity parse(Object raw) {
        return raw == null ? CPU : valueOf(String.valueOf(raw).toUpperCase(Locale.ROOT));
    }

    /**
     * pCPUs per scheduling resource on a host with {@code coresPerSocket} cores of {@code usableThreads}
     * online threads: cpupool_check_granularity counts the online siblings, so with SMT off (one
     * online thread per core) {@code core} gives 1, the same as {@code cpu}.
     */
    public int cpusPerResource(int coresPerSocket, int usableThreads) {
        return switch (this) {
            case CPU -> 1;
            case CORE -> usableThreads;
            case SOCKET -> coresPerSocket * usableThreads;
        };
    }

    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
