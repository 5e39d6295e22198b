package io.volumizer.options.topology;

import java.nio.file.Path;
import java.util.Optional;

import io.volumizer.domain.topology.Topology;
import io.volumizer.domain.topology.TopologyFile;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;

/**
 * Which topology the repositories follow (a picocli mixin of every job and of the API): a topology file, loaded
 * and checked at start. Without one, each document stays in the repository it names, as with
 * {@code topologies/single.yaml}.
 */
public final class TopologyOptions {

    @Option(names = "--topology", converter = AbsolutePath.class, description = "Topology file (YAML): the repositories and "
            + "the rules that route documents to them (default: none, one repository as in topologies/single.yaml).")
    public Path file;

    private Topology loaded;

    /** A relative path is the command's working directory's: made absolute, so the jobs it submits find the file. */
    static final class AbsolutePath implements ITypeConverter<Path> {
        @Override
        public Path convert(String value) {
            return Path.of(value).toAbsolutePath().normalize();
        }
    }

    /** @throws TopologyException naming the line and field of what is wrong in the file */
    public void validate() {
        topology();
    }

    /** The file's topology, read once and checked; empty without a file. */
    public Optional<Topology> topology() {
        if (file != null && loaded == null) {
            loaded = TopologyFile.load(file);
        }
        return Optional.ofNullable(loaded);
    }

    /** The file's topology, or else one repository that every document goes to. */
    public Topology orSingle(String repository) {
        return topology().orElseGet(() -> Topology.single(repository));
    }
}
