package io.schedlab.engine.cli;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;

/**
 * Command-line entry of the engine: {@code simulate}, {@code scenario}, {@code bench}, {@code calibrate} and
 * {@code help}, without Spring. Any first argument that is not an option (does not start with
 * {@code -}) belongs here, so a typo gets a usage error instead of starting the service.
 */
public final class Cli {
    static final String SIMULATE_USAGE = """
            usage: schedlab simulate FILE [--out F] [--trace F] [--perfetto F]
              FILE        experiment document (JSON), validated like POST /api/v1/experiments
              --out F     write the result document to F instead of standard output
              --trace F   turn the event trace on and write it to F as CSV (time_ns,pcpu,event,vm,vcpu)
              --perfetto F  turn the event trace on and write it to F as Chrome trace-event JSON
                          (open it in ui.perfetto.dev: a track per pCPU, migrations, run queues)
              --help      print this help""";
    static final String SCENARIO_USAGE = """
            usage: schedlab scenario <E1..E5|all|list> [--quick] [--threads N] [--markdown FILE] [--skip E4,..]
              E1..E5      run one built-in published experiment (the sweeps GET /api/v1/scenarios/ID
                          serves) on this machine and print its tables
              all         run every scenario
              list        list the scenarios
              --quick     smaller sizes: a smoke run whose shape can differ from the published one
              --threads   run N experiments at once (default 1; the tables do not depend on it)
              --markdown  also write the fidelity document (tables, effect sizes, constants) to FILE
              --skip      name these scenarios in the fidelity document without running them
              --help      print this help""";
    static final String BENCH_USAGE = """
            usage: schedlab bench [--policy P[,P..]] [--seconds S] [--repeat N] [--warmup W] [--scale K] [--pcpus N]
              --policy P  policies to measure, comma separated (default credit2,credit,static)
              --seconds S simulated seconds per run (default 60)
              --repeat N  measured runs per policy, the median is printed (default 3)
              --warmup W  unmeasured runs first, to warm the JIT (default 1)
              --scale K   also run K x the simulated time once, to show the heap stays flat (default 0: off)
              --pcpus N   instead: 64 pCPUs against N (a multiple of 64, same load per pCPU), runs alternating,
                          N pairs as --repeat; prints events per cpu-s of both and the cost ratio
              --help      print this help""";
    static final List<String> COMMANDS = List.of("simulate", "scenario", "bench", "calibrate", "help");

    private Cli() {
    }

    /** True when {@code args} are for the command line rather than the service: a first argument that is not an option. */
    public static boolean handles(String[] args) {
        return args.length > 0 && !args[0].startsWith("-");
    }

    /** A command of the application around the engine (handled before this class): named in help and errors. */
    public record OtherCommand(String name, String usage) {
    }

    /** Runs the command and returns the process exit code. */
    public static int run(String[] args) {
        return run(args, List.of());
    }

    /** Runs the command; {@code others} are the application's own commands, listed by help and usage errors. */
    public static int run(String[] args, List<OtherCommand> others) {
        return run(args, System.out, System.err, others);
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        return run(args, out, err, List.of());
    }

    static int run(String[] args, PrintStream out, PrintStream err, List<OtherCommand> others) {
        if (args.length == 0 || !COMMANDS.contains(args[0])) {
            List<String> known = new java.util.ArrayList<>(COMMANDS);
            others.forEach(o -> known.add(o.name()));
            err.println("error: unknown command '" + (args.length == 0 ? "" : args[0]) + "'; known: "
                    + String.join(", ", known) + " (run with no command to start the service)");
            err.println(fullUsage(others));
            return 2;
        }
        if ("help".equals(args[0])) {
            out.println(fullUsage(others));
            return 0;
        }
        if (Arrays.asList(args).contains("--help") || Arrays.asList(args).contains("-h")) {
            out.println(commandUsage(args[0]));
            return 0;
        }
        try {
            return switch (args[0]) {
                case "simulate" -> SimulateCommand.run(args, out, err);
                case "bench" -> BenchCommand.run(args);
                case "calibrate" -> CalibrateCommand.run(args, out, err, io.schedlab.engine.Engine.standard());
                default -> ScenarioCommand.run(Arrays.copyOfRange(args, 1, args.length), out, err);
            };
        } catch (io.schedlab.engine.run.RunLimitExceededException | io.schedlab.engine.run.RunCancelledException e) {
            err.println("error: " + e.getMessage());
            return 1;
        } catch (IllegalArgumentException e) {
            err.println("error: " + e.getMessage());
            err.println(commandUsage(args[0]));
            return 2;
        }
    }

    static String commandUsage(String command) {
        return switch (command) {
            case "simulate" -> SIMULATE_USAGE;
            case "scenario" -> SCENARIO_USAGE;
            case "bench" -> BENCH_USAGE;
            case "calibrate" -> CalibrateCommand.USAGE;
            default -> fullUsage();
        };
    }

    static String fullUsage() {
        return fullUsage(List.of());
    }

    static String fullUsage(List<OtherCommand> others) {
        StringBuilder usage = new StringBuilder(SIMULATE_USAGE + "\n" + SCENARIO_USAGE + "\n" + BENCH_USAGE + "\n"
                + CalibrateCommand.USAGE + "\n");
        others.forEach(o -> usage.append(o.usage()).append('\n'));
        return usage.append("usage: schedlab help     print this help\n")
                .append("with no command (or only --options) the REST service starts").toString();
    }
}
