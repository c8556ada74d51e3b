package io.schedlab.web;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * HTTP/1.1 over a plain socket, for requests an HTTP client refuses to send (invalid %-escapes,
 * control characters, raw bytes in the path, duplicate Host headers). One request per connection.
 */
final class RawHttp {

    private RawHttp() {
    }

    /** The answer: status, headers (lower-case names), body (de-chunked). */
    record Answer(int status, Map<String, String> headers, String body) {
        String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    /** Sends {@code head} (request line and headers, without the blank line) and {@code body}. */
    static Answer send(int port, String head, byte[] body) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(20_000);
            StringBuilder h = new StringBuilder(head);
            if (!head.toLowerCase(Locale.ROOT).contains("\r\nhost:")) {
                h.append("\r\nHost: localhost");
            }
            if (body.length > 0) {
                h.append("\r\nContent-Length: ").append(body.length);
            }
            h.append("\r\nConnection: close\r\n\r\n");
            try {
                socket.getOutputStream().write(h.toString().getBytes(StandardCharsets.ISO_8859_1));
                socket.getOutputStream().write(body);
                socket.getOutputStream().flush();
            } catch (java.net.SocketException answeredEarly) {
                // the server answered (and closed) before reading everything: read that answer
            }
            return parse(socket.getInputStream().readAllBytes());
        }
    }

    static Answer send(int port, String head) throws IOException {
        return send(port, head, new byte[0]);
    }

    private static Answer parse(byte[] raw) throws IOException {
        String all = new String(raw, StandardCharsets.ISO_8859_1);
        int end = all.indexOf("\r\n\r\n");
        if (end < 0) {
            throw new IOException("no complete answer: " + all);
        }
        String[] lines = all.substring(0, end).split("\r\n");
        int status = Integer.parseInt(lines[0].split(" ")[1]);
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            headers.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).trim());
        }
        byte[] body = java.util.Arrays.copyOfRange(raw, end + 4, raw.length);
        if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
            body = dechunk(new java.io.ByteArrayInputStream(body));
        }
        return new Answer(status, headers, new String(body, StandardCharsets.UTF_8));
    }

    private static byte[] dechunk(InputStream in) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        while (true) {
            StringBuilder size = new StringBuilder();
            for (int c = in.read(); c != '\n'; c = in.read()) {
                if (c < 0) {
                    return out.toByteArray();
                }
                if (c != '\r') {
                    size.append((char) c);
                }
            }
            int n = Integer.parseInt(size.toString().split(";")[0].trim(), 16);
            if (n == 0) {
                return out.toByteArray();
            }
            out.write(in.readNBytes(n));
            in.read();
            in.read();
        }
    }
}
