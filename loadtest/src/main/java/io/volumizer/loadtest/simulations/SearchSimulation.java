package io.volumizer.loadtest.simulations;

import io.gatling.javaapi.core.Simulation;
import io.volumizer.loadtest.LoadSettings;
import io.volumizer.loadtest.LoadUsers;
import io.volumizer.loadtest.Scenarios;

/** Fulltext, filtered, sorted and aggregated searches, some paging on. Target: p95 &lt; 150 ms. */
public class SearchSimulation extends Simulation {

    private final LoadSettings settings = LoadSettings.fromSystemProperties(150);
    private final LoadUsers users = LoadUsers.logIn(settings);

    {
        setUp(Scenarios.open(Scenarios.search(settings, users, 2), settings, 1.0)).protocols(Scenarios.protocol(settings))
                .assertions(Scenarios.assertions(settings, java.util.List.of()));
    }
}
