package io.schedlab.engine.hypervisor;

import java.util.Arrays;
import java.util.Collections;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A hypervisor layer's counters, per vCPU (by uid) and summed over the run: KVM's are {@link #NAMES}, Xen's
 * {@link #PLE_EXITS} alone. Every name is documented here; maps come out sorted by name.
 */
public final class HypervisorStatistics {
    /** Pause-loop exits (VM exits of a spinning vCPU after its PLE window; under Xen each calls vcpu_yield). */
    public static final String PLE_EXITS = "pleExits";
    /** kvm_vcpu_on_spin calls (exits whose handler went on to look for a candidate). */
    public static final String ON_SPIN_CALLS = "kvmVcpuOnSpinCalls";
    /** Handlers that returned at once: the spinner was alone on its host run queue (undercommit variants). */
    public static final String UNDERCOMMIT_RETURNS = "undercommitReturns";
    /** Other vCPUs of the VM examined by kvm_vcpu_on_spin. */
    public static final String CANDIDATES_SCANNED = "candidatesScanned";
    /** yield_to calls. */
    public static final String YIELDS_TRIED = "yieldToTried";
    /** yield_to calls that boosted their target (> 0). */
    public static final String YIELDS_SUCCEEDED = "yieldToSucceeded";
    /** yield_to calls that did not (0 or -ESRCH). */
    public static final String YIELDS_FAILED = "yieldToFailed";
    /** yield_to calls that returned -ESRCH (both run queues held one task). */
    public static final String YIELDS_ESRCH = "yieldToEsrch";
    /** schedule() calls after no yield succeeded in overcommit (overcommit-schedule variants). */
    public static final String OVERCOMMIT_SCHEDULES = "overcommitSchedules";
    /** Time spent in the exit and its handler, charged to the spinning vCPU, in ns. */
    public static final String HANDLER_NANOS = "handlerNanos";
    static final String[] NAMES = {PLE_EXITS, ON_SPIN_CALLS, UNDERCOMMIT_RETURNS, CANDIDATES_SCANNED, YIELDS_TRIED,
        YIELDS_SUCCEEDED, YIELDS_FAILED, YIELDS_ESRCH, OVERCOMMIT_SCHEDULES, HANDLER_NANOS};

    private final String[] names;
    private long[][] perVcpu = new long[64][];
    private final long[] run;

    /** KVM's counters, {@link #NAMES}. */
    HypervisorStatistics() {
        this(NAMES);
    }

    /** The given counters (each one of the names above). */
    HypervisorStatistics(String... names) {
        this.names = names.clone();
        this.run = new long[names.length];
    }

    void add(int uid, int counter, long amount) {
        if (uid >= perVcpu.length) {
            perVcpu = Arrays.copyOf(perVcpu, Math.max(uid + 1, perVcpu.length * 2));
        }
        if (perVcpu[uid] == null) {
            perVcpu[uid] = new long[names.length];
        }
        perVcpu[uid][counter] += amount;
        run[counter] += amount;
    }

    /** Counter index of a name among this instance's counters. */
    int indexOf(String name) {
        for (int i = 0; i < names.length; i++) {
            if (names[i].equals(name)) {
                return i;
            }
        }
        throw new IllegalArgumentException(name);
    }

    /** Counter index of a name among KVM's counters ({@link #NAMES}). */
    static int index(String name) {
        for (int i = 0; i < NAMES.length; i++) {
            if (NAMES[i].equals(name)) {
                return i;
            }
        }
        throw new IllegalArgumentException(name);
    }

    /** Run-level totals, sorted by name. */
    public SortedMap<String, Long> run() {
        return asMap(run);
    }

    /** One vCPU's counters (all zero if it never exited), sorted by name. */
    public SortedMap<String, Long> vcpu(int uid) {
        return asMap(uid < perVcpu.length && perVcpu[uid] != null ? perVcpu[uid] : new long[names.length]);
    }

    private SortedMap<String, Long> asMap(long[] values) {
        TreeMap<String, Long> m = new TreeMap<>();
        for (int i = 0; i < names.length; i++) {
            m.put(names[i], values[i]);
        }
        return Collections.unmodifiableSortedMap(m);
    }
}
