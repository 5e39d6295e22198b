package io.volumizer.loadtest.simulations;

import io.gatling.javaapi.core.Simulation;
import io.volumizer.loadtest.LoadSettings;
import io.volumizer.loadtest.LoadUsers;
import io.volumizer.loadtest.Scenarios;

/** Create with upload, read, update, delete, waiting and asynchronous. Target: reads p95 &lt; 50 ms. */
public class CrudSimulation extends Simulation {

    private final LoadSettings settings = LoadSettings.fromSystemProperties(LoadSettings.NAVIGATION_P95_MILLIS);
    private final LoadUsers users = LoadUsers.logIn(settings);

    {
        setUp(Scenarios.open(Scenarios.crud(settings, users, 3), settings, 1.0)).protocols(Scenarios.protocol(settings))
                .assertions(Scenarios.assertions(settings, java.util.List.of("read")));
    }
}
