/** HTTP edge of completion webhooks: the delivery logs of experiments and sweeps and the signing secret. */
package io.schedlab.webhooks.web;
