package io.volumizer.domain.topology;

import io.volumizer.domain.yaml.YamlFileException;

/** What is wrong with a topology file, with the line and the field it is at. */
public final class TopologyException extends YamlFileException {

    private static final long serialVersionUID = 1L;

    TopologyException(String source, int line, String field, String problem) {
        super(source, line, field, problem);
    }
}
