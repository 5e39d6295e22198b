package io.volumizer.options.steps;

import static io.volumizer.options.Options.require;

import java.time.Duration;

import io.volumizer.schemas.event.Acl;
import io.volumizer.stores.AclJson;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Options of the setAcl job: the folder whose own ACL changes, its new ACL, and how its descendants are read and
 * followed while their effective ACLs are recomputed.
 */
@Command(name = "set-acl", description = "Changes a folder's ACL and recomputes the effective ACL of every document below it.")
public final class SetAclOptions extends CommandStepOptions {

    /** The command's action, as its record and the bulk API name it. */
    public static final String ACTION = "setAcl";

    @Option(names = "--document", required = true, description = "The folder whose own ACL changes.")
    public String document;

    @Option(names = "--acl", required = true, description = "Its new ACL, as JSON: {\"aces\": [{\"principal\", "
            + "\"permission\": READ|WRITE|MANAGE, \"granted\"}], \"blockInheritance\"}.")
    public String acl;

    @Option(names = "--read-batch", defaultValue = "500", description = "Folders whose children one MongoDB read "
            + "takes, and changes checked at once (default: ${DEFAULT-VALUE}).")
    public int readBatch;

    @Option(names = "--applied-check-interval", defaultValue = "PT0.2S", description = "How often the job checks "
            + "whether the import has applied its changes, before it reads the next round (default: ${DEFAULT-VALUE}).")
    public Duration appliedCheckInterval;

    /** The new ACL, as {@link AclJson#read} reads it. */
    public Acl newAcl() {
        return AclJson.read(acl, "--acl");
    }

    @Override
    protected void validateCommand() {
        require(!document.isBlank(), "--document must name the folder");
        newAcl();
        require(readBatch >= 1 && readBatch <= 10_000, "--read-batch must be between 1 and 10000, was " + readBatch);
        require(appliedCheckInterval.toMillis() >= 10, "--applied-check-interval must be at least 10 ms, was " + appliedCheckInterval);
    }
}
