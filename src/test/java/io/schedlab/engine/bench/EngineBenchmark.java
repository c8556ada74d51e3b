package io.schedlab.engine.bench;

import io.schedlab.engine.Engine;
import io.schedlab.engine.run.RunControl;
import io.schedlab.engine.cli.BenchScenario;
import io.schedlab.engine.registry.Registry;
import io.schedlab.engine.sim.EventQueue;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.Limits;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * JMH benchmark of the engine on the bench scenario (64 pCPUs, 256 vCPUs, mixed workloads) and of
 * the raw event heap. Not a test. Run (see docs/benchmarks.md):
 * {@code java -cp target/test-classes:target/classes:$(cat cp.txt) org.openjdk.jmh.Main EngineBenchmark}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xmx256m"})
@Warmup(iterations = 2)
@Measurement(iterations = 5)
public class EngineBenchmark {
    @Param({"static", "credit", "credit2"})
    public String policy;

    @Param({"60"})
    public double simulatedSeconds;

    private Engine engine;
    private ExperimentSpec normalized;

    @Setup
    public void setup() {
        Registry registry = BenchScenario.registry();
        engine = new Engine(registry);
        normalized = engine.validate(BenchScenario.build(registry, policy, simulatedSeconds), Limits.defaults())
                .normalized();
    }

    /** One full scenario run; the score is wall time per run (events are in the result). */
    @Benchmark
    public long scenario() {
        return engine.run(normalized, Limits.defaults(), RunControl.NONE).totals().events();
    }

    /** The ceiling: 4 M events through the engine's heap in a hold model of 320 pending events. */
    @Benchmark
    public long rawHeap4M() {
        EventQueue q = new EventQueue(640, 1L << 40);
        SplittableRandom r = new SplittableRandom(1);
        for (int i = 0; i < 320; i++) {
            q.push(r.nextLong(1_000_000), EventQueue.pack(2, i, 0));
        }
        long sink = 0;
        for (int i = 0; i < 4_000_000; i++) {
            long p = q.pop();
            sink += p;
            q.push(q.poppedTime() + 1 + r.nextLong(1_000_000), p);
        }
        return sink;
    }
}
