package io.schedlab.engine.cli;

import io.schedlab.engine.registry.Registry;
import io.schedlab.engine.spec.ExperimentSpec;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * {@code bench --pcpus N}: the per-event cost on a large host against the standard one. For each policy
 * it runs {@link BenchScenario} on 64 pCPUs and on N pCPUs (the same load per pCPU), both for S simulated
 * seconds with {@link BenchScenario#UNCONTENDED_LOCKS}, so every vCPU does the same work in both and the per-vCPU
 * costs of setting up and of the result weigh the same per event; the runs alternate (64 then N, N then 64, ...) so a shared machine's load falls
 * on both alike. It prints each pair, the medians of events per
 * thread-CPU second and the median of the pairs' cost ratios (events per CPU-s at 64 / at N: 1.0 means
 * an event costs the same on both hosts).
 */
final class HostScaling {
    private HostScaling() {
    }

    static int run(Registry registry, List<String> policies, int pcpus, double seconds, int warmup, int pairs) {
        int base = BenchScenario.BASE_PCPUS;
        System.out.printf(Locale.ROOT, "# bench: %d vs %d pCPUs (sockets of 16 cores x 2 threads, 8 vCPUs per 2 pCPUs),"
                + " %.1f simulated s, %d pairs, java %s, max heap %d MB%n", base, pcpus, seconds, pairs, System.getProperty("java.version"), Runtime.getRuntime().maxMemory() >> 20);
        for (String policy : policies) {
            ExperimentSpec smallSpec = BenchScenario.build(registry, policy, seconds, base, BenchScenario.UNCONTENDED_LOCKS);
            ExperimentSpec bigSpec = BenchScenario.build(registry, policy, seconds, pcpus, BenchScenario.UNCONTENDED_LOCKS);
            for (int w = 0; w < warmup; w++) {
                BenchCommand.print("warmup " + base, policy, BenchCommand.measure(smallSpec, registry));
                BenchCommand.print("warmup " + pcpus, policy, BenchCommand.measure(bigSpec, registry));
            }
            double[] small = new double[pairs];
            double[] big = new double[pairs];
            double[] ratio = new double[pairs];
            for (int i = 0; i < pairs; i++) {
                BenchCommand.Measurement s;
                BenchCommand.Measurement b;
                if (i % 2 == 0) {
                    s = BenchCommand.measure(smallSpec, registry);
                    b = BenchCommand.measure(bigSpec, registry);
                } else {
                    b = BenchCommand.measure(bigSpec, registry);
                    s = BenchCommand.measure(smallSpec, registry);
                }
                BenchCommand.print("pair " + (i + 1) + " " + base, policy, s);
                BenchCommand.print("pair " + (i + 1) + " " + pcpus, policy, b);
                small[i] = s.eventsPerCpuSecond();
                big[i] = b.eventsPerCpuSecond();
                ratio[i] = small[i] / big[i];
            }
            System.out.printf(Locale.ROOT, "scaling  %-8s M events per cpu-s, median: %d pCPUs %.2f | %d pCPUs %.2f |"
                    + " cost per event %d/%d = %.2f (pairs: %s)%n", policy, base, median(small) / 1e6, pcpus,
                    median(big) / 1e6, pcpus, base, median(ratio), format(ratio));
        }
        return 0;
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[(sorted.length - 1) / 2];
    }

    private static String format(double[] values) {
        StringBuilder out = new StringBuilder();
        for (double v : values) {
            out.append(out.length() == 0 ? "" : " ").append(String.format(Locale.ROOT, "%.2f", v));
        }
        return out.toString();
    }
}
