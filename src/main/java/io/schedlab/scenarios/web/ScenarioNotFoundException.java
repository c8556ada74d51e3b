package io.schedlab.scenarios.web;

/** No built-in scenario has this name. */
class ScenarioNotFoundException extends RuntimeException {
    ScenarioNotFoundException(String name) {
        super("no scenario '" + name + "'; known: E1, E2, E3, E4, E5");
    }
}
