package io.volumizer.options.steps;

import static io.volumizer.options.Options.require;

import io.volumizer.schemas.event.Acl;
import io.volumizer.stores.AclJson;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** Options of the setAcl job: the folder whose own ACL changes, and its new ACL. */
@Command(name = "set-acl", description = "Changes a folder's ACL and recomputes the effective ACL of every document "
        + "below it (the job of bin/volumizer bulk set-acl).",
        footer = {"%nExample:",
            "  bin/volumizer bulk set-acl demo --document st-TX --acl '{\"aces\": [",
            "    {\"principal\": \"branch-TX\", \"permission\": \"WRITE\", \"granted\": true},",
            "    {\"principal\": \"compliance\", \"permission\": \"READ\", \"granted\": true}]}'"})
public final class SetAclOptions extends CommandStepOptions {

    /** The command's action, as its record and the bulk API name it. */
    public static final String ACTION = "setAcl";

    @Option(names = "--document", required = true, description = "The folder whose own ACL changes.")
    public String document;

    @Option(names = "--acl", required = true, description = "Its new ACL, as JSON: {\"aces\": [{\"principal\", "
            + "\"permission\": READ|WRITE|MANAGE, \"granted\"}], \"blockInheritance\"}.")
    public String acl;

    /** The new ACL, as {@link AclJson#read} reads it. */
    public Acl newAcl() {
        return AclJson.read(acl, "--acl");
    }

    @Override
    protected void validateCommand() {
        require(!document.isBlank(), "--document must name the folder");
        newAcl();
    }
}
