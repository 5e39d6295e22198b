package io.volumizer.api.testing;

import java.net.MalformedURLException;

import io.volumizer.api.ApiOptions;
import io.volumizer.api.ApiServer;
import io.volumizer.api.internal.Backends;

/** The API started on its options' backends and free ports: its routes at {@link #base}, its metrics at {@link #management}. */
public final class LocalApi implements AutoCloseable {

    public final Backends backends;
    public final ApiServer.Servers servers;
    public final String base;
    public final String management;

    public LocalApi(ApiOptions options) throws MalformedURLException {
        backends = options.openBackends();
        servers = ApiServer.create(options, backends).start(options);
        base = "http://127.0.0.1:" + servers.api().port();
        management = "http://127.0.0.1:" + servers.management().port();
    }

    @Override
    public void close() throws Exception {
        servers.stop();
        backends.close();
    }
}
