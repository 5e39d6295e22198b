package io.volumizer.architecture.violations.bench.harness;

public class Harness {
    public int rounds() {
        return 1;
    }
}
