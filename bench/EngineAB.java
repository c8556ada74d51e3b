import java.lang.management.ManagementFactory;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.*;

/**
 * Paired A/B of the engine bench scenario in one JVM: two builds' classes in two class loaders, run
 * alternately (A B, B A, ...), thread CPU time per run; prints each pair and the median of the B/A
 * ratios, which a shared, noisy machine disturbs much less than separate bench invocations.
 * Not a test. From the repository root, after {@code dependency:build-classpath -Dmdep.outputFile=cp.txt}:
 * <pre>
 * java bench/EngineAB.java A_CLASSES_DIR B_CLASSES_DIR POLICY SIMULATED_SECONDS PAIRS
 * e.g. git worktree add /tmp/base HEAD~5 &amp;&amp; (cd /tmp/base &amp;&amp; ./mvnw -o -q compile)
 *      java bench/EngineAB.java /tmp/base/target/classes target/classes credit2 60 11
 * </pre>
 */
public class EngineAB {
    static Object[] setup(ClassLoader cl, String policy, double seconds) throws Exception {
        Class<?> bs = cl.loadClass("io.schedlab.engine.cli.BenchScenario");
        Object registry = bs.getMethod("registry").invoke(null);
        Class<?> regC = cl.loadClass("io.schedlab.engine.registry.Registry");
        Object spec = bs.getMethod("build", regC, String.class, double.class).invoke(null, registry, policy, seconds);
        Class<?> engC = cl.loadClass("io.schedlab.engine.Engine");
        Object engine = engC.getConstructor(regC).newInstance(registry);
        Class<?> specC = cl.loadClass("io.schedlab.engine.spec.ExperimentSpec");
        Class<?> limC = cl.loadClass("io.schedlab.engine.spec.Limits");
        Object limits = limC.getMethod("defaults").invoke(null);
        Object validation = engC.getMethod("validate", specC, limC).invoke(engine, spec, limits);
        Object normalized = validation.getClass().getMethod("normalized").invoke(validation);
        Class<?> rcC = runControl(cl);
        Object none = rcC.getField("NONE").get(null);
        Method run = engC.getMethod("run", specC, limC, rcC);
        return new Object[] {engine, normalized, limits, none, run};
    }

    /** RunControl: io.schedlab.engine.run today, io.schedlab.engine in older builds. */
    static Class<?> runControl(ClassLoader cl) throws ClassNotFoundException {
        try {
            return cl.loadClass("io.schedlab.engine.run.RunControl");
        } catch (ClassNotFoundException older) {
            return cl.loadClass("io.schedlab.engine.RunControl");
        }
    }

    static double[] once(Object[] s) throws Exception {
        com.sun.management.ThreadMXBean t = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long c0 = t.getCurrentThreadCpuTime();
        Object doc = ((Method) s[4]).invoke(s[0], s[1], s[2], s[3]);
        long c1 = t.getCurrentThreadCpuTime();
        Object summary = doc.getClass().getMethod("summary").invoke(doc); // totals().events() is newer
        long events = (long) summary.getClass().getMethod("events").invoke(summary);
        return new double[] {events / ((c1 - c0) / 1e9), events};
    }

    public static void main(String[] a) throws Exception {
        String deps = Files.readString(Path.of("cp.txt")).trim();
        List<URL> depUrls = new ArrayList<>();
        for (String p : deps.split(":")) depUrls.add(Path.of(p).toUri().toURL());
        if (a.length != 5) {
            System.err.println("usage: java bench/EngineAB.java A_CLASSES B_CLASSES POLICY SIMULATED_SECONDS PAIRS");
            System.exit(2);
        }
        String policy = a[2];
        double seconds = Double.parseDouble(a[3]);
        int pairs = Integer.parseInt(a[4]);
        Object[][] setups = new Object[2][];
        for (int k = 0; k < 2; k++) {
            List<URL> urls = new ArrayList<>();
            urls.add(Path.of(a[k]).toUri().toURL());
            urls.addAll(depUrls);
            ClassLoader cl = new URLClassLoader(urls.toArray(new URL[0]), ClassLoader.getPlatformClassLoader());
            setups[k] = setup(cl, policy, seconds);
        }
        for (int w = 0; w < 2; w++) { once(setups[0]); once(setups[1]); }
        double[] ra = new double[pairs], rb = new double[pairs], ratio = new double[pairs];
        for (int i = 0; i < pairs; i++) {
            double[] x, y;
            if (i % 2 == 0) { x = once(setups[0]); y = once(setups[1]); } else { y = once(setups[1]); x = once(setups[0]); }
            ra[i] = x[0]; rb[i] = y[0]; ratio[i] = y[0] / x[0];
            System.out.printf(Locale.ROOT, "pair %d %s A %.2f M  B %.2f M  B/A %.3f (events %.0f / %.0f)%n", i, policy, x[0] / 1e6, y[0] / 1e6, ratio[i], x[1], y[1]);
        }
        Arrays.sort(ra); Arrays.sort(rb); Arrays.sort(ratio);
        System.out.printf(Locale.ROOT, "SUMMARY %s pairs %d: A median %.2f M best %.2f M | B median %.2f M best %.2f M | median B/A %.3f%n",
                policy, pairs, ra[pairs / 2] / 1e6, ra[pairs - 1] / 1e6, rb[pairs / 2] / 1e6, rb[pairs - 1] / 1e6, ratio[pairs / 2]);
    }
}
