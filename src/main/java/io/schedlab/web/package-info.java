/**
 * Cross-cutting web concerns: RFC 9457 problem details with stable type URIs for every error,
 * the request body size limit, and the served OpenAPI metadata.
 */
package io.schedlab.web;
