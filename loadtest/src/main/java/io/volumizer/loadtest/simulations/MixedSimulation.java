package io.volumizer.loadtest.simulations;

import io.gatling.javaapi.core.Simulation;
import io.volumizer.loadtest.LoadSettings;
import io.volumizer.loadtest.LoadUsers;
import io.volumizer.loadtest.Scenarios;

/**
 * Navigation and search together (three browsing users for one searching). {@code bin/volumizer loadtest mixed}
 * runs it twice, without and then with an import job running, and reports how navigation latency changes.
 */
public class MixedSimulation extends Simulation {

    private final LoadSettings settings = LoadSettings.fromSystemProperties(LoadSettings.NAVIGATION_P95_MILLIS);
    private final LoadUsers users = LoadUsers.logIn(settings);

    {
        setUp(Scenarios.open(Scenarios.navigation(settings, users, 4), settings, 0.75),
                Scenarios.open(Scenarios.search(settings, users, 5), settings, 0.25))
                .protocols(Scenarios.protocol(settings))
                .assertions(Scenarios.assertions(settings, java.util.List.of()));
    }
}
