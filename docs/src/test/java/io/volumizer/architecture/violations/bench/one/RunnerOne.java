package io.volumizer.architecture.violations.bench.one;

import io.volumizer.architecture.violations.bench.harness.Harness;
import io.volumizer.architecture.violations.bench.two.RunnerTwo;

/** Borrows another runner's code (a violation) and the harness (allowed). */
public class RunnerOne {
    public int run() {
        return new RunnerTwo().run() + new Harness().rounds();
    }
}
