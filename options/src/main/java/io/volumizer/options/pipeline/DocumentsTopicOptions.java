package io.volumizer.options.pipeline;

import picocli.CommandLine.Option;

/** The documents topic, which every writer appends to (a picocli mixin of the jobs and the API). */
public final class DocumentsTopicOptions {

    @Option(names = "--documents-topic", defaultValue = "volumizer.documents",
            description = "Document events, keyed by parent id (default: ${DEFAULT-VALUE}).")
    public String topic;
}
