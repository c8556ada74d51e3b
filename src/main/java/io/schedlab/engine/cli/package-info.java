/** The engine's command line ({@code simulate}, {@code scenario}, {@code bench}), run from the jar without Spring. */
package io.schedlab.engine.cli;
