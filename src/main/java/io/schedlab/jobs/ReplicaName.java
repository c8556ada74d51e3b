package io.schedlab.jobs;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * How this process names itself in db-scheduler's {@code picked_by} and in an experiment's
 * {@code replica}: {@code schedlab.jobs.replica-name} when set, else {@code host:port}. With a
 * random port ({@code server.port=0}) the process id stands in for the port ({@code host:pid1234}),
 * so two replicas on one host never share a name (db-scheduler's own default is the host name alone).
 */
public record ReplicaName(String name) {

    /** Longest name (the experiments.run_by column is 255 characters). */
    public static final int MAX_LENGTH = 200;

    static ReplicaName of(String configured, int port) {
        if (configured != null && !configured.isBlank()) {
            return new ReplicaName(configured.trim());
        }
        String suffix = port > 0 ? Integer.toString(port) : "pid" + ProcessHandle.current().pid();
        return new ReplicaName(host() + ":" + suffix);
    }

    private static String host() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "localhost";
        }
    }
}
