package io.schedlab.access;

/** The {@link CallerAccess} of the caller being served (provided by the web edge). */
@FunctionalInterface
public interface CallerAccessProvider {

    /** Everyone may do everything (no API keys). */
    CallerAccessProvider OPEN = () -> CallerAccess.OPEN;

    /** The current caller's access; {@link CallerAccess#OPEN} outside a request. */
    CallerAccess current();
}
