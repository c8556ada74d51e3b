package io.schedlab.access;

/** The caller may read the object but not change it (403): a reader key cancelling, say. */
public class NotAllowedException extends RuntimeException {

    public NotAllowedException(String message) {
        super(message);
    }
}
