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
 * @param readersSee         which objects reader keys read: {@code all} (every owner's) or {@code own}
 *                           (only their own key's, which is nothing a reader can create)
 */
@ConfigurationProperties("schedlab.auth")
public record AuthProperties(Path keysFile, @DefaultValue("5s") Duration keysReloadInterval,
        @DefaultValue("all") String readersSee) {

    public AuthProperties {
        if (!"all".equals(readersSee) && !"own".equals(readersSee)) {
            throw new IllegalArgumentException("schedlab.auth.readers-see must be all or own, was " + readersSee);
        }
        if (keysReloadInterval == null || keysReloadInterval.isNegative()) {
            throw new IllegalArgumentException("schedlab.auth.keys-reload-interval must be >= 0, was " + keysReloadInterval);
        }
    }

    /** True when reader keys read every owner's objects. */
    public boolean readersSeeAll() {
        return "all".equals(readersSee);
    }
}
