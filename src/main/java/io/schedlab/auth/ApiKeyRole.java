package io.schedlab.auth;

import java.util.Locale;

/**
 * What an API key may do. {@code reader}: read (GET) everything; {@code submitter}: read, submit,
 * validate, and cancel its own experiments (others' are not found to it); {@code admin}: everything,
 * including others' experiments.
 */
public enum ApiKeyRole {
    READER, SUBMITTER, ADMIN;

    /** The role as written in the keys file ({@code reader}, {@code submitter}, {@code admin}). */
    public String fileName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** True when this role may use {@code method} at all (ownership is checked by the experiments feature). */
    public boolean mayUse(String method) {
        boolean read = "GET".equals(method) || "HEAD".equals(method) || "OPTIONS".equals(method);
        return read || this != READER;
    }

    /** True when this role sees every owner's experiments. */
    public boolean seesAll() {
        return this != SUBMITTER;
    }

    /** Parses a role name as written in the keys file or on the command line. */
    public static ApiKeyRole parse(String text) {
        for (ApiKeyRole role : values()) {
            if (role.fileName().equals(text)) {
                return role;
            }
        }
        throw new IllegalArgumentException("unknown role '" + text + "'; known: reader, submitter, admin");
    }
}
