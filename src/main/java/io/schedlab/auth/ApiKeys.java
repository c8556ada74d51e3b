package io.schedlab.auth;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The keys file ({@code schedlab.auth.keys-file}): one key a line, {@code SHA256-HEX ROLE NAME}
 * (the SHA-256 of the key in lower-case hex, a role, a name of 1-64 letters, digits, '.', '_',
 * '-'); blank lines and lines starting with {@code #} are ignored. Only hashes are stored, so the
 * file discloses no key. A bad line fails the start-up, naming the line.
 */
public final class ApiKeys {

    /** Names: what experiments record as their owner. */
    public static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,64}");
    private static final Pattern HASH = Pattern.compile("[0-9a-f]{64}");

    private final Map<String, ApiKey> byHash;

    private ApiKeys(Map<String, ApiKey> byHash) {
        this.byHash = Map.copyOf(byHash);
    }

    /** Reads and checks the keys file. */
    public static ApiKeys load(Path file) {
        try {
            return parse(Files.readAllLines(file, StandardCharsets.UTF_8), file.toString());
        } catch (IOException e) {
            throw new IllegalStateException("cannot read schedlab.auth.keys-file " + file + ": " + e.getMessage(), e);
        }
    }

    /** Parses the lines of a keys file; {@code source} names it in error messages. */
    public static ApiKeys parse(List<String> lines, String source) {
        Map<String, ApiKey> byHash = new HashMap<>();
        Set<String> names = new HashSet<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String[] parts = line.split("\\s+");
            String where = source + " line " + (i + 1) + ": ";
            if (parts.length != 3) {
                throw new IllegalStateException(where + "expected 'SHA256-HEX ROLE NAME'");
            }
            if (!HASH.matcher(parts[0]).matches()) {
                throw new IllegalStateException(where + "the first field must be 64 lower-case hex digits (SHA-256)");
            }
            ApiKeyRole role;
            try {
                role = ApiKeyRole.parse(parts[1]);
            } catch (IllegalArgumentException e) {
                throw new IllegalStateException(where + e.getMessage(), e);
            }
            if (!NAME.matcher(parts[2]).matches()) {
                throw new IllegalStateException(where + "names are 1-64 letters, digits, '.', '_' or '-'");
            }
            if (!names.add(parts[2]) || byHash.put(parts[0], new ApiKey(parts[2], role)) != null) {
                throw new IllegalStateException(where + "duplicate key or name '" + parts[2] + "'");
            }
        }
        if (byHash.isEmpty()) {
            throw new IllegalStateException(source + " holds no key; every /api call would be refused");
        }
        return new ApiKeys(byHash);
    }

    /** The key a bearer token stands for, if any. */
    public Optional<ApiKey> find(String token) {
        return token == null || token.isEmpty() || token.length() > 512 ? Optional.empty()
                : Optional.ofNullable(byHash.get(sha256Hex(token)));
    }

    /** Number of keys. */
    public int size() {
        return byHash.size();
    }

    /** SHA-256 of the UTF-8 text, lower-case hex: the first field of a keys-file line. */
    public static String sha256Hex(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every Java platform", e);
        }
    }
}
