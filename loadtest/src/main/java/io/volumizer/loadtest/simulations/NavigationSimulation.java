package io.volumizer.loadtest.simulations;

import io.gatling.javaapi.core.Simulation;
import io.volumizer.loadtest.LoadSettings;
import io.volumizer.loadtest.LoadUsers;
import io.volumizer.loadtest.Scenarios;

/** Browsing: documents, children pages, breadcrumbs, parents and files. Target: p95 &lt; 50 ms. */
public class NavigationSimulation extends Simulation {

    private final LoadSettings settings = LoadSettings.fromSystemProperties(LoadSettings.NAVIGATION_P95_MILLIS);
    private final LoadUsers users = LoadUsers.logIn(settings);

    {
        setUp(Scenarios.open(Scenarios.navigation(settings, users, 1), settings, 1.0)).protocols(Scenarios.protocol(settings))
                .assertions(Scenarios.assertions(settings, java.util.List.of()));
    }
}
