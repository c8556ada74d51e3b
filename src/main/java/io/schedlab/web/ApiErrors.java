package io.schedlab.web;

/** Media type of every error body, for OpenAPI annotations. */
public final class ApiErrors {
    public static final String PROBLEM_JSON = "application/problem+json";

    private ApiErrors() {
    }
}
