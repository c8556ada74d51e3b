/** Results feature: the stored result document of a SUCCEEDED experiment and its CSV event trace file. */
package io.schedlab.results;
