package io.volumizer.architecture.violations.alpha.internal;

import io.volumizer.architecture.violations.alpha.feature.Feature;

/** Breaks the rule that internal code reaches no feature of its module. */
public class Helper {
    public Feature feature() {
        return new Feature();
    }
}
