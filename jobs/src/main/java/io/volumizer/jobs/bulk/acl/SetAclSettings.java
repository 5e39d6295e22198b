package io.volumizer.jobs.bulk.acl;

import java.io.Serializable;
import java.time.Duration;
import java.time.Instant;

import io.volumizer.stores.Backoff;
import io.volumizer.stores.mongodb.RepositoryDatabases;

/**
 * What a setAcl command's propagation needs: where the repository and the command record are, the folder and its
 * new ACL (JSON, as {@link io.volumizer.stores.AclJson} reads it), the command and the time its changes are stamped
 * with, and how MongoDB is retried.
 */
record SetAclSettings(RepositoryDatabases databases, String repository, String folderId, String aclJson,
        String commandId, Instant commandTime, Backoff backoff) implements Serializable {

    /** Folders whose children one MongoDB read takes, and changes checked as applied at once (a bulk command's batch). */
    static final int READ_BATCH = 500;

    /** How often the propagation checks whether the import has applied what it sent. */
    static final Duration APPLIED_CHECK_INTERVAL = Duration.ofMillis(200);
}
