package io.schedlab.engine.cli;

/** {@code bench}: the engine benchmark (filled in by the benchmark step). */
final class BenchCommand {
    private BenchCommand() {
    }

    static int run(String[] args) {
        System.err.println("bench: not yet implemented");
        return 1;
    }
}
