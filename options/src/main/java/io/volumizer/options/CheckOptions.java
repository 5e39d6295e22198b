package io.volumizer.options;

import picocli.CommandLine.Option;

/**
 * {@code --check-options} (a picocli mixin of the commands bin/volumizer runs): parse and check the options, then
 * exit, so that a wrong option is reported before any service is started or anything is uploaded.
 */
public final class CheckOptions {

    @Option(names = "--check-options", hidden = true, description = "Check the options, then exit without doing anything.")
    public boolean only;
}
