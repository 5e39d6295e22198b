package io.volumizer.loadtest.simulations;

import io.gatling.javaapi.core.Simulation;
import io.volumizer.loadtest.LoadSettings;
import io.volumizer.loadtest.LoadUsers;
import io.volumizer.loadtest.Scenarios;

/** Every journey at a low rate for a few seconds: proves the simulations work against a live stack. */
public class SmokeSimulation extends Simulation {

    private final LoadSettings settings = LoadSettings.fromSystemProperties(5_000);
    private final LoadUsers users = LoadUsers.logIn(settings);

    {
        setUp(Scenarios.open(Scenarios.navigation(settings, users, 6), settings, 0.4),
                Scenarios.open(Scenarios.search(settings, users, 7), settings, 0.4),
                Scenarios.open(Scenarios.crud(settings, users, 8), settings, 0.2))
                .protocols(Scenarios.protocol(settings))
                .assertions(Scenarios.assertions(settings, java.util.List.of()));
    }
}
