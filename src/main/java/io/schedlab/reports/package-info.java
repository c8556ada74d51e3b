/**
 * Reports: HTML pages of an experiment (summary, latency CDFs, per-VM and per-pCPU bars, pCPU
 * timeline from the trace) and of a sweep (metric-vs-parameter curves with error bars, the
 * table), drawn in the browser by Apache ECharts served by the application (no CDN).
 */
package io.schedlab.reports;
