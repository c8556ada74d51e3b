package io.schedlab.auth;

import java.io.PrintStream;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;

/**
 * {@code apikey new --role R --name N}: makes a new random key (32 bytes from SecureRandom,
 * base64url) and prints it with its keys-file line. Only the line goes into the file; the key is
 * shown once, to hand to its user. Plain Java: runs without starting the service.
 */
public final class ApiKeyCommand {

    /** Its usage text, also printed by {@code help}. */
    public static final String USAGE = "usage: schedlab apikey new --role reader|submitter|admin --name NAME\n"
            + "  prints a new API key and its line for schedlab.auth.keys-file (SHA256-HEX ROLE NAME)";
    private static final SecureRandom RANDOM = new SecureRandom();

    private ApiKeyCommand() {
    }

    /** True for the command line this command handles. */
    public static boolean handles(String[] args) {
        return args.length > 0 && "apikey".equals(args[0]);
    }

    /** Runs it; returns the exit code (2 on a usage error). */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        String role = null;
        String name = null;
        if (args.length == 2 && List.of("--help", "-h", "help").contains(args[1])) {
            out.println(USAGE);
            return 0;
        }
        if (args.length < 2 || !"new".equals(args[1])) {
            return usage(err, args.length < 2 ? "missing sub-command" : "unknown sub-command '" + args[1] + "'");
        }
        for (int i = 2; i < args.length; i++) {
            String option = args[i];
            if (("--role".equals(option) || "--name".equals(option)) && i + 1 < args.length) {
                if ("--role".equals(option)) {
                    role = args[++i];
                } else {
                    name = args[++i];
                }
            } else if ("--help".equals(option) || "-h".equals(option)) {
                out.println(USAGE);
                return 0;
            } else {
                return usage(err, "unexpected argument '" + option + "'");
            }
        }
        if (role == null || name == null) {
            return usage(err, "--role and --name are required");
        }
        ApiKeyRole parsed;
        try {
            parsed = ApiKeyRole.parse(role);
        } catch (IllegalArgumentException e) {
            return usage(err, e.getMessage());
        }
        if (!ApiKeys.NAME.matcher(name).matches()) {
            return usage(err, "names are 1-64 letters, digits, '.', '_' or '-'");
        }
        byte[] secret = new byte[32];
        RANDOM.nextBytes(secret);
        String key = "sl_" + Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
        out.println("key:  " + key);
        out.println("line: " + ApiKeys.sha256Hex(key) + " " + parsed.fileName() + " " + name);
        err.println("add the line to the file named by schedlab.auth.keys-file; the key is not stored anywhere");
        return 0;
    }

    private static int usage(PrintStream err, String problem) {
        err.println("error: " + problem);
        err.println(USAGE);
        return 2;
    }
}
