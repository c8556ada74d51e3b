package io.schedlab.auth;

import java.nio.file.Path;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code schedlab.auth.*}.
 *
 * @param keysFile           the API keys file ({@link ApiKeys}); unset = no keys, the API is open to anyone
 * @param keysReloadInterval how often the keys file's modification time and size are checked; a
 *                           changed file is read again and its keys replace the old ones at once
 *                           (a malformed one is refused and the old keys stay); 0 = read at start-up only
 */
@ConfigurationProperties("schedlab.auth")
public record AuthProperties(Path keysFile, @DefaultValue("5s") Duration keysReloadInterval) {

    public AuthProperties {
        if (keysReloadInterval == null || keysReloadInterval.isNegative()) {
            throw new IllegalArgumentException("schedlab.auth.keys-reload-interval must be >= 0, was " + keysReloadInterval);
        }
    }
}
