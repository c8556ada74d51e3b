package io.schedlab.contract.responses;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.Charset;

/** Passes every byte of the answer through as it is written and keeps a copy of the first {@code limit} bytes. */
final class TeeResponse extends HttpServletResponseWrapper {

    private final ByteArrayOutputStream copy = new ByteArrayOutputStream();
    private final int limit;
    private ServletOutputStream stream;
    private PrintWriter writer;

    TeeResponse(HttpServletResponse response, int limit) {
        super(response);
        this.limit = limit;
    }

    @Override
    public ServletOutputStream getOutputStream() throws IOException {
        if (stream == null) {
            ServletOutputStream target = super.getOutputStream();
            stream = new ServletOutputStream() {
                @Override
                public void write(int b) throws IOException {
                    target.write(b);
                    keep(new byte[] {(byte) b}, 0, 1);
                }

                @Override
                public void write(byte[] b, int off, int len) throws IOException {
                    target.write(b, off, len);
                    keep(b, off, len);
                }

                @Override
                public void flush() throws IOException {
                    target.flush();
                }

                @Override
                public boolean isReady() {
                    return target.isReady();
                }

                @Override
                public void setWriteListener(WriteListener listener) {
                    target.setWriteListener(listener);
                }
            };
        }
        return stream;
    }

    @Override
    public PrintWriter getWriter() throws IOException {
        if (writer == null) {
            writer = new PrintWriter(new OutputStreamWriter(getOutputStream(), Charset.forName(getCharacterEncoding())));
        }
        return writer;
    }

    @Override
    public void flushBuffer() throws IOException {
        flushWriter();
        super.flushBuffer();
    }

    void flushWriter() {
        if (writer != null) {
            writer.flush();
        }
    }

    private synchronized void keep(byte[] b, int off, int len) {
        int room = limit - copy.size();
        if (room > 0) {
            copy.write(b, off, Math.min(room, len));
        }
    }

    synchronized byte[] copy() {
        return copy.toByteArray();
    }
}
