package io.schedlab.engine.cli;

/** Command-line entry of the engine: {@code simulate FILE [--out F]}, {@code scenario ...} and {@code bench [...]}, without Spring. */
public final class Cli {
    private Cli() {
    }

    /** True when {@code args} name an engine command rather than the service. */
    public static boolean handles(String[] args) {
        return args.length > 0 && ("simulate".equals(args[0]) || "bench".equals(args[0])
                || "scenario".equals(args[0]));
    }

    /** Runs the command and returns the process exit code. */
    public static int run(String[] args) {
        try {
            return switch (args[0]) {
                case "simulate" -> SimulateCommand.run(args);
                case "bench" -> BenchCommand.run(args);
                case "scenario" -> ScenarioCommand.run(java.util.Arrays.copyOfRange(args, 1, args.length), System.out,
                        System.err);
                default -> usage();
            };
        } catch (io.schedlab.engine.RunLimitExceededException | io.schedlab.engine.RunCancelledException e) {
            System.err.println("error: " + e.getMessage());
            return 1;
        } catch (IllegalArgumentException e) {
            System.err.println("error: " + e.getMessage());
            return usage();
        }
    }

    static int usage() {
        System.err.println("usage: schedlab simulate FILE [--out F] [--trace F]\n"
                + "       schedlab scenario <E1..E5|all|list> [--quick]\n"
                + "       schedlab bench [--policy P] [--seconds S] [--repeat N] [--scale K] [--raw-only]");
        return 2;
    }
}
