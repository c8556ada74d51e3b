package io.schedlab.webhooks;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real HTTP receiver for webhook events (the JDK's com.sun.net.httpserver) on 127.0.0.1: it keeps
 * every request it gets and answers 503 to the first {@code failures}, 204 after.
 */
final class Receiver implements AutoCloseable {

    /** One request as received: its headers (lower-case names) and body bytes. */
    record Request(Map<String, String> headers, byte[] body, String path) {
        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }

        String header(String name) {
            return headers.get(name.toLowerCase(java.util.Locale.ROOT));
        }
    }

    private final HttpServer server;
    private final List<Request> requests = new CopyOnWriteArrayList<>();
    private final AtomicInteger failuresLeft;

    private Receiver(int port, int failures) throws IOException {
        this.failuresLeft = new AtomicInteger(failures);
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 0);
        server.createContext("/", exchange -> {
            Map<String, String> headers = new java.util.HashMap<>();
            exchange.getRequestHeaders().forEach((k, v) -> headers.put(k.toLowerCase(java.util.Locale.ROOT), v.get(0)));
            requests.add(new Request(headers, exchange.getRequestBody().readAllBytes(),
                    exchange.getRequestURI().getPath()));
            int status = failuresLeft.getAndDecrement() > 0 ? 503 : 204;
            exchange.sendResponseHeaders(status, -1);
            exchange.close();
        });
        server.start();
    }

    /** A receiver on a free port that fails the first {@code failures} requests. */
    static Receiver failingFirst(int failures) throws IOException {
        return new Receiver(0, failures);
    }

    /** A receiver on {@code port} (one that was down until now) accepting every request. */
    static Receiver on(int port) throws IOException {
        return new Receiver(port, 0);
    }

    /** A port nothing listens on right now. */
    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        }
    }

    String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    List<Request> requests() {
        return requests;
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
