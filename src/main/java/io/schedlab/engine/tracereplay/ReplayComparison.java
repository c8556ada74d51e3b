package io.schedlab.engine.tracereplay;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.apache.commons.math3.stat.inference.KolmogorovSmirnovTest;

/**
 * How close a replay came to its record: per vCPU and over all of them, the recorded and simulated run
 * slices and waits side by side (counts, means, medians) and the two-sample Kolmogorov-Smirnov statistic
 * D = sup |F_recorded(x) - F_simulated(x)| (0: the same distribution, 1: disjoint), computed by Apache
 * Commons Math's KolmogorovSmirnovTest.kolmogorovSmirnovStatistic. D needs at least two samples on each
 * side; with fewer it is null.
 *
 * @param threads every vCPU
 * @param runs    all run slices pooled
 * @param waits   all waits pooled
 */
public record ReplayComparison(List<ReplayComparison.VcpuFit> threads, ReplayComparison.SampleFit runs,
        ReplayComparison.SampleFit waits) {

    private static final int MIN_SAMPLES = 2; // KolmogorovSmirnovTest refuses fewer (InsufficientDataException)

    /** One distribution recorded and simulated; {@code ks} null when either side has fewer than two samples. */
    public record SampleFit(int recordedCount, int simulatedCount, Double recordedMeanNanos, Double simulatedMeanNanos,
            Long recordedMedianNanos, Long simulatedMedianNanos, Double ks) {
    }

    /** One vCPU: the recorded thread it replays, its run slices and its waits. */
    public record VcpuFit(String vm, int vcpu, String recordedName, SampleFit runs, SampleFit waits) {
    }


    /** Compares the reference with the simulated vCPUs ({@link SimulatedSamples}, threads named {@code vm/vcpu}). */
    public static ReplayComparison of(List<ImportedExperiment.ThreadReference> reference, RecordedTrace simulated) {
        Map<String, RecordedThread> sim = new HashMap<>();
        for (RecordedThread t : simulated.threads()) {
            sim.put(t.name(), t);
        }
        List<VcpuFit> threads = new ArrayList<>();
        List<long[]> recRuns = new ArrayList<>();
        List<long[]> simRuns = new ArrayList<>();
        List<long[]> recWaits = new ArrayList<>();
        List<long[]> simWaits = new ArrayList<>();
        for (ImportedExperiment.ThreadReference r : reference) {
            RecordedThread s = sim.get(r.vm() + "/" + r.vcpu());
            long[] sRun = s == null ? new long[0] : s.runNanos();
            long[] sWait = s == null ? new long[0] : s.waitNanos();
            threads.add(new VcpuFit(r.vm(), r.vcpu(), r.recordedName(), fit(r.runNanos(), sRun),
                    fit(r.waitNanos(), sWait)));
            recRuns.add(r.runNanos());
            simRuns.add(sRun);
            recWaits.add(r.waitNanos());
            simWaits.add(sWait);
        }
        return new ReplayComparison(threads, fit(concat(recRuns), concat(simRuns)), fit(concat(recWaits), concat(simWaits)));
    }

    static SampleFit fit(long[] recorded, long[] simulated) {
        Double ks = recorded.length < MIN_SAMPLES || simulated.length < MIN_SAMPLES ? null
                : new KolmogorovSmirnovTest().kolmogorovSmirnovStatistic(doubles(recorded), doubles(simulated));
        return new SampleFit(recorded.length, simulated.length, mean(recorded), mean(simulated), median(recorded),
                median(simulated), ks);
    }

    private static long[] concat(List<long[]> parts) {
        return parts.stream().flatMapToLong(LongStream::of).toArray();
    }

    private static double[] doubles(long[] values) {
        return LongStream.of(values).asDoubleStream().toArray();
    }

    private static Double mean(long[] values) {
        return values.length == 0 ? null : LongStream.of(values).average().orElseThrow();
    }

    /** The lower median (the value at index (n - 1) / 2 of the sorted samples). */
    private static Long median(long[] values) {
        if (values.length == 0) {
            return null;
        }
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[(sorted.length - 1) / 2];
    }
}
