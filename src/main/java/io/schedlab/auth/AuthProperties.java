package io.schedlab.auth;

import java.nio.file.Path;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code schedlab.auth.*}.
 *
 * @param keysFile the API keys file ({@link ApiKeys}); unset = no keys, the API is open to anyone
 */
@ConfigurationProperties("schedlab.auth")
public record AuthProperties(Path keysFile) {
}
