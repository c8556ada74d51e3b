package io.schedlab.web;

import java.util.Set;
import org.apache.coyote.http11.Http11NioProtocol;
import org.apache.tomcat.util.net.SocketWrapperBase;

/**
 * Tomcat's NIO HTTP/1.1 connector with its open connections readable by {@link SlowClientGuard}
 * ({@code AbstractProtocol.getEndpoint()} is protected). Set as the connector's protocol by
 * {@link SlowClientGuard}'s customizer; behaves exactly as {@link Http11NioProtocol} otherwise.
 */
public class GuardedNioProtocol extends Http11NioProtocol {

    /** The connections open now (accepted and not closed), as Tomcat's endpoint tracks them. */
    Set<? extends SocketWrapperBase<?>> openConnections() {
        return getEndpoint().getConnections();
    }
}
