/** The report pages (experiment, sweep) and the security headers of the application's own pages. */
package io.schedlab.reports.web;
