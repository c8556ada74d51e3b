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

/**
 * Passes every byte of the answer through as it is written and keeps a copy of the bytes the
 * validator would check (a longer copy only tells it the body is too long to parse).
 */
final class TeeResponse extends HttpServletResponseWrapper {

    private static final int KEPT_BYTES = OpenApiResponseValidator.MAX_CHECKED_BODY_BYTES + 1;

    private final ByteArrayOutputStream copy = new ByteArrayOutputStream();
    private TeeStream tee;
    private PrintWriter writer;

    TeeResponse(HttpServletResponse response) {
        super(response);
    }

    @Override
    public ServletOutputStream getOutputStream() throws IOException {
        tee = tee != null ? tee : new TeeStream(super.getOutputStream());
        return tee;
    }

    @Override
    public PrintWriter getWriter() throws IOException {
        writer = writer != null ? writer
                : new PrintWriter(new OutputStreamWriter(getOutputStream(), Charset.forName(getCharacterEncoding())));
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

    synchronized byte[] copy() {
        return copy.toByteArray();
    }

    private synchronized void keep(byte[] b, int off, int len) {
        int room = KEPT_BYTES - copy.size();
        if (room > 0) {
            copy.write(b, off, Math.min(room, len));
        }
    }

    /** Writes to the answer, then keeps what it wrote. */
    private final class TeeStream extends ServletOutputStream {

        private final ServletOutputStream target;

        TeeStream(ServletOutputStream target) {
            this.target = target;
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
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
    }
}
