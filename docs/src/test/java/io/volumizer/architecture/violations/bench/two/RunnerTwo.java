package io.volumizer.architecture.violations.bench.two;

import io.volumizer.architecture.violations.bench.harness.Harness;

public class RunnerTwo {
    public int run() {
        return new Harness().rounds();
    }
}
