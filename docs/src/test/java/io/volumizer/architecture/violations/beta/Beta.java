package io.volumizer.architecture.violations.beta;

import io.volumizer.architecture.violations.alpha.feature.Feature;

public class Beta {
    public Feature feature() {
        return new Feature();
    }
}
