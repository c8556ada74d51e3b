package io.schedlab.traceimport;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.schedlab.engine.recording.TraceCsv;
import io.schedlab.engine.spec.Violation;
import io.schedlab.engine.tracereplay.GroupBy;
import io.schedlab.engine.tracereplay.ImportLimits;
import io.schedlab.engine.tracereplay.ImportedExperiment;
import io.schedlab.engine.tracereplay.LinuxSchedText;
import io.schedlab.engine.tracereplay.RecordedTrace;
import io.schedlab.engine.tracereplay.ReplayComparison;
import io.schedlab.engine.tracereplay.SimulatedSamples;
import io.schedlab.engine.tracereplay.TraceImportException;
import io.schedlab.engine.tracereplay.XentraceSched;
import io.schedlab.experiments.Experiment;
import io.schedlab.experiments.ExperimentService;
import io.schedlab.experiments.InvalidExperimentException;
import io.schedlab.experiments.LimitsProperties;
import io.schedlab.experiments.TraceFile;
import io.schedlab.experiments.ValidatedExperiment;
import io.schedlab.web.BadParameterException;
import io.schedlab.web.TraceNotAvailableException;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Service;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * Imports recorded traces as experiments and compares replays with their records. A file is read under
 * the request body limit ({@code schedlab.limits.max-body-bytes}), at most {@link #MAX_RECORDS} records, and
 * the service's vCPU and pCPU limits; an unreadable file is a 422 naming the line or byte offset.
 */
@Service
public class TraceImportService {

    /** Most lines or binary records one import reads. */
    public static final long MAX_RECORDS = 100_000;
    /** Scheduler when none is given: Linux's fair class for Linux text, Xen's default (credit2) for xentrace. */
    static final String LINUX_DEFAULT_SCHEDULER = "cfs";
    static final String XEN_DEFAULT_SCHEDULER = "credit2";

    /** The imported experiment, its spec as JSON, and the recorded trace's summary. */
    public record Imported(ImportedExperiment.Imported experiment, String specJson, RecordedTrace trace) {
    }

    private final ExperimentService experiments;
    private final TraceReferences references;
    private final ImportLimits limits;
    private final Path dataDir;
    private final JsonMapper json = JsonMapper.builder().build();
    /** Writes the spec as a user would: absent fields left out. */
    private final JsonMapper specWriter = JsonMapper.builder()
            .changeDefaultPropertyInclusion(i -> i.withValueInclusion(JsonInclude.Include.NON_NULL)).build();

    TraceImportService(ExperimentService experiments, TraceReferences references, LimitsProperties limits,
            @Value("${schedlab.limits.max-body-bytes:1048576}") long maxBodyBytes,
            @Value("${schedlab.data-dir:./data}") String dataDir) {
        this.experiments = experiments;
        this.references = references;
        this.limits = new ImportLimits(maxBodyBytes, MAX_RECORDS, limits.maxVcpus(), limits.maxPcpus());
        this.dataDir = Path.of(dataDir);
    }

    /** Reads the file and builds its experiment, validated as a submission would be (nothing is stored). */
    public Imported read(byte[] file, TraceImportRequest request) {
        String format = request.format() == null ? "" : request.format().toLowerCase(java.util.Locale.ROOT);
        boolean xen = XentraceSched.FORMAT.equals(format);
        if (!xen && !LinuxSchedText.FORMATS.contains(format)) {
            throw new BadParameterException("format", "must be perf-script, trace-cmd or xentrace");
        }
        GroupBy groupBy = groupBy(request.groupBy(), xen);
        RecordedTrace trace;
        try {
            trace = xen ? XentraceSched.read(file, groupBy, cpuHz(request.cpuHz()), limits)
                    : LinuxSchedText.read(file, format, groupBy, limits);
        } catch (TraceImportException e) {
            throw new InvalidExperimentException(List.of(new Violation("", "the " + format + " file, "
                    + e.getMessage())));
        }
        String scheduler = request.scheduler() != null ? request.scheduler()
                : xen ? XEN_DEFAULT_SCHEDULER : LINUX_DEFAULT_SCHEDULER;
        ImportedExperiment.Imported imported;
        try {
            imported = ImportedExperiment.of(trace, scheduler, request.name());
        } catch (TraceImportException e) {
            throw new InvalidExperimentException(List.of(new Violation("", "the " + format + " file, "
                    + e.getMessage())));
        }
        String spec = specWriter.writeValueAsString(imported.spec());
        experiments.validate(spec.getBytes(StandardCharsets.UTF_8));
        return new Imported(imported, spec, trace);
    }

    /** Submits an import, storing its recorded reference in the same transaction. */
    public Experiment submit(Imported imported) {
        ValidatedExperiment valid = experiments.validate(imported.specJson().getBytes(StandardCharsets.UTF_8));
        String reference = json.writeValueAsString(imported.experiment().reference());
        return experiments.submitValidated(List.of(valid),
                ids -> references.insert(ids.get(0), imported.trace().format(), reference)).get(0);
    }

    /** The replay of an imported experiment against its record: 404 unless it was imported and ran traced. */
    public ReplayComparison compare(UUID id) {
        experiments.requireResult(id);
        String stored = references.find(id).orElseThrow(() -> new TraceNotAvailableException("experiment " + id
                + " was not imported from a recorded trace (POST /api/v1/experiments:import with submit=true):"
                + " there is no record to compare with"));
        Path file = TraceFile.pathOf(dataDir, id);
        if (!Files.isRegularFile(file)) {
            throw new TraceNotAvailableException("experiment " + id + " has no trace of its replay to compare");
        }
        List<ImportedExperiment.ThreadReference> reference = json.readValue(stored,
                new TypeReference<List<ImportedExperiment.ThreadReference>>() { });
        SimulatedSamples simulated = new SimulatedSamples();
        try (Reader csv = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            TraceCsv.readInto(csv, simulated);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the trace of " + id, e);
        }
        return ReplayComparison.of(reference, simulated.finish());
    }

    private static GroupBy groupBy(String text, boolean xen) {
        if (text == null) {
            return xen ? GroupBy.DOMAIN : GroupBy.COMM;
        }
        GroupBy g;
        try {
            g = GroupBy.of(text);
        } catch (IllegalArgumentException e) {
            throw new BadParameterException("groupBy", e.getMessage());
        }
        if (g == (xen ? GroupBy.COMM : GroupBy.DOMAIN)) {
            throw new BadParameterException("groupBy", xen ? "a xentrace file has no comm: use domain or single"
                    : "a Linux trace has no domains: use comm or single");
        }
        return g;
    }

    private static long cpuHz(Long given) {
        if (given == null) {
            return XentraceSched.DEFAULT_CPU_HZ;
        }
        if (given <= 0 || given > XentraceSched.MAX_CPU_HZ) {
            throw new BadParameterException("cpuHz", "must be 1.." + XentraceSched.MAX_CPU_HZ);
        }
        return given;
    }
}
