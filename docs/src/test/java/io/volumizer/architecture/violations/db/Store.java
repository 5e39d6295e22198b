package io.volumizer.architecture.violations.db;

import java.net.URI;

/** A store's client: it reaches its "driver" (here java.net). */
public class Store {
    public String read() {
        return URI.create("stored:value").getScheme();
    }
}
