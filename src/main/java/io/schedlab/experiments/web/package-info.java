/** HTTP edge of the experiments feature: package-private controllers and response records under /api/v1. */
package io.schedlab.experiments.web;
