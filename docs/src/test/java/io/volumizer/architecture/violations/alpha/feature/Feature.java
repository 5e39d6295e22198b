package io.volumizer.architecture.violations.alpha.feature;

import io.volumizer.architecture.violations.alpha.internal.Helper;
import io.volumizer.architecture.violations.beta.Beta;

/** With Helper, a cycle between the module's packages; with Beta, one between modules. */
public class Feature {
    public Helper helper() {
        return new Helper();
    }

    public Beta beta() {
        return new Beta();
    }
}
