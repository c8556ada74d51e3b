/** The sweeps API: submit, read with progress and table (JSON or CSV), list, cancel. */
package io.schedlab.sweeps.web;
