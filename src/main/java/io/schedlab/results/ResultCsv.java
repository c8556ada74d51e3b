package io.schedlab.results;

import io.schedlab.engine.output.Distribution;
import io.schedlab.engine.output.ResultDocument;
import io.schedlab.engine.output.VcpuResult;
import io.schedlab.engine.output.VmResult;
import io.schedlab.web.CsvResponses;
import java.util.ArrayList;
import java.util.List;

/**
 * The result document as tidy CSV: {@code table=vms} (default) one row per VM,
 * {@code table=vcpus} one row per vCPU. Columns are the document's field names, a nested field named
 * as its path flattened ({@code headline.unit}: {@code headlineUnit}, {@code wakeLatency.p99Nanos}:
 * {@code wakeLatencyP99Nanos}); {@code vm} is the VM's name and {@code partial} the document's. Units
 * as in the document: nanoseconds in {@code *Nanos}, a headline's own unit in {@code headlineUnit}.
 * Empty where the document has null; documented in openapi.yaml.
 */
final class ResultCsv {
    static final List<String> VM_COLUMNS = List.of("vm", "workloadType", "weight", "headlineValue", "headlineUnit",
            "startNanos", "endNanos", "completionNanos", "cpuNanosAllVcpus", "runnableWaitNanosAllVcpus",
            "blockedNanosAllVcpus", "spinNanosAllVcpus", "demandShare", "competing", "wakeLatencyCount",
            "wakeLatencyP50Nanos", "wakeLatencyP99Nanos", "migrationsTotal", "partial");
    static final List<String> VCPU_COLUMNS = List.of("vm", "vcpu", "cpuNanos", "runnableWaitNanos", "blockedNanos",
            "spinNanos", "wakeLatencyCount", "wakeLatencyP50Nanos", "wakeLatencyP99Nanos", "migrationsTotal",
            "partial");

    private ResultCsv() {
    }

    static String table(ResultDocument d, String table) {
        if (table == null || "vms".equals(table)) {
            List<List<Object>> rows = new ArrayList<>();
            for (VmResult v : d.vms()) {
                Distribution w = v.wakeLatency();
                rows.add(java.util.Arrays.asList(v.name(), v.workloadType(), v.weight(),
                        v.headline() == null ? null : v.headline().value(),
                        v.headline() == null ? null : v.headline().unit(), v.startNanos(), v.endNanos(),
                        v.completionNanos(), v.cpuNanosAllVcpus(), v.runnableWaitNanosAllVcpus(),
                        v.blockedNanosAllVcpus(), v.spinNanosAllVcpus(), v.demandShare(), v.competing(), w.count(),
                        w.p50Nanos(), w.p99Nanos(), v.migrations().total(), d.partial()));
            }
            return CsvResponses.table(VM_COLUMNS, rows);
        }
        if ("vcpus".equals(table)) {
            List<List<Object>> rows = new ArrayList<>();
            for (VmResult v : d.vms()) {
                for (VcpuResult c : v.vcpus()) {
                    Distribution w = c.wakeLatency();
                    rows.add(java.util.Arrays.asList(v.name(), c.vcpu(), c.cpuNanos(), c.runnableWaitNanos(),
                            c.blockedNanos(), c.spinNanos(), w.count(), w.p50Nanos(), w.p99Nanos(),
                            c.migrations().total(), d.partial()));
                }
            }
            return CsvResponses.table(VCPU_COLUMNS, rows);
        }
        throw new io.schedlab.web.BadParameterException("table", "must be vms or vcpus");
    }
}
