package io.schedlab.auth;

/** One API key as the service knows it: its name (the owner of what it submits) and its role. */
public record ApiKey(String name, ApiKeyRole role) {
}
