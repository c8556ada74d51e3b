package io.schedlab.engine.tracereplay;

/** How recorded threads become VMs: one per domain (xentrace), one per comm (Linux text), or one for all. */
public enum GroupBy {
    /** One VM per Xen domain, its vCPUs as recorded. */
    DOMAIN,
    /** One VM per command name ({@code comm}): the threads of a program together. */
    COMM,
    /** One VM holding every recorded thread. */
    SINGLE;

    /** Reads {@code domain}, {@code comm} or {@code single} (any case). */
    public static GroupBy of(String text) {
        for (GroupBy g : values()) {
            if (g.name().equalsIgnoreCase(text)) {
                return g;
            }
        }
        throw new IllegalArgumentException("must be domain, comm or single");
    }
}
