package io.volumizer.architecture.violations.web;

import io.javalin.http.Context;
import io.volumizer.architecture.violations.db.Store;

/** An HTTP handler reaching a store without a service. */
public class Handler {
    public void handle(Context context) {
        context.result(new Store().read());
    }
}
