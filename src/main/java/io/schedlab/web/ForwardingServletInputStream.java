package io.schedlab.web;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;

/** A request body stream that forwards the non-blocking I/O calls to the stream it wraps; subclasses watch the reads. */
abstract class ForwardingServletInputStream extends ServletInputStream {

    protected final ServletInputStream in;

    ForwardingServletInputStream(ServletInputStream in) {
        this.in = in;
    }

    @Override
    public boolean isFinished() {
        return in.isFinished();
    }

    @Override
    public boolean isReady() {
        return in.isReady();
    }

    @Override
    public void setReadListener(ReadListener listener) {
        in.setReadListener(listener);
    }
}
