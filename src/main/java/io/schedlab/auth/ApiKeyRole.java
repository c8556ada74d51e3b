package io.schedlab.auth;

import io.schedlab.access.CallerAccess;
import java.util.Locale;

/**
 * What an API key may do. {@code reader}: read (GET) everything (or nothing but its own, with
 * {@code schedlab.auth.readers-see=own}); {@code submitter}: read, submit, validate, cancel and delete
 * its own experiments and sweeps (others' are not found to it); {@code admin}: everything, including
 * others' objects. The object-level rule itself is {@link CallerAccess}.
 */
public enum ApiKeyRole {
    READER, SUBMITTER, ADMIN;

    /** The role as written in the keys file ({@code reader}, {@code submitter}, {@code admin}). */
    public String fileName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** True when this role may use {@code method} at all (ownership is checked by {@link CallerAccess}). */
    public boolean mayUse(String method) {
        boolean read = "GET".equals(method) || "HEAD".equals(method) || "OPTIONS".equals(method);
        return read || this != READER;
    }

    /** This key's object-level access; {@code readersSeeAll} is {@code schedlab.auth.readers-see=all}. */
    public CallerAccess access(String keyName, boolean readersSeeAll) {
        return switch (this) {
            case READER -> new CallerAccess(keyName, readersSeeAll, false, false);
            case SUBMITTER -> new CallerAccess(keyName, false, false, true);
            case ADMIN -> new CallerAccess(keyName, true, true, true);
        };
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
