package io.schedlab.engine.spec;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * How pCPU ids follow the hardware threads. Xen and Linux both give CPU numbers in the order the
 * firmware lists the processors in the ACPI MADT (xen/arch/x86/mpparse.c MP_processor_info_x takes
 * alloc_cpu_id() per entry; Linux arch/x86/kernel/apic/apic.c generic_processor_info up to 6.8,
 * arch/x86/kernel/cpu/topology.c topo_register_apic from 6.9, likewise), so the order is the host's,
 * not the hypervisor's. It matters wherever ids are walked in order: the default placement, Xen's
 * creation placement (cpumask_cycle over the online CPUs), credit2's tickling (cpumask_cycle over the
 * idle mask), and in every affinity list a user copies from {@code xl vcpu-pin}.
 */
public enum CpuNumbering {
    /** A core's threads get consecutive ids: id = (socket x cores + core) x threads + thread (siblings 0 and 1). */
    SIBLINGS_ADJACENT,
    /**
     * Every core's first thread, then every core's second one: id = thread x (sockets x cores) + socket x cores
     * + core (siblings 0 and 4 on 4 cores x 2 threads), the MADT order of many Intel hosts, e.g. an i7-6700K
     * under Linux lists CPUs 0 and 4 as one core's threads (jplozi/wastedcores issue 6).
     */
    CORES_FIRST;

    /** The pCPU id of hardware thread {@code thread} of core {@code core} (within its socket) of {@code socket}. */
    public int pcpuId(int sockets, int coresPerSocket, int threads, int socket, int core, int thread) {
        return switch (this) {
            case SIBLINGS_ADJACENT -> (socket * coresPerSocket + core) * threads + thread;
            case CORES_FIRST -> thread * sockets * coresPerSocket + socket * coresPerSocket + core;
        };
    }

    /** The global core (socket x cores + core within the socket) that pCPU {@code id} belongs to. */
    public int coreOf(int sockets, int coresPerSocket, int threads, int id) {
        return switch (this) {
            case SIBLINGS_ADJACENT -> id / threads;
            case CORES_FIRST -> id % (sockets * coresPerSocket);
        };
    }

    /** The socket that pCPU {@code id} belongs to. */
    public int socketOf(int sockets, int coresPerSocket, int threads, int id) {
        return coreOf(sockets, coresPerSocket, threads, id) / coresPerSocket;
    }

    /** JSON form: lower-case kebab ({@code "cores-first"}). */
    @JsonValue
    public String json() {
        return SpecEnums.toJson(this);
    }

    /** Accepts {@code "cores-first"}, {@code "CORES_FIRST"} and other case/dash variants. */
    @JsonCreator
    public static CpuNumbering fromJson(String value) {
        return SpecEnums.fromJson(CpuNumbering.class, value);
    }
}
