package io.volumizer.jobs.bulk.acl;

import java.io.Serializable;
import java.time.Duration;
import java.time.Instant;

import io.volumizer.stores.Backoff;
import io.volumizer.stores.mongodb.RepositoryDatabases;

/**
 * What a setAcl command's propagation needs: where the repository and the command record are, the folder and its
 * new ACL (JSON, as {@link io.volumizer.stores.AclJson} reads it), the command and the time its changes are stamped
 * with, and how it reads and waits.
 */
record SetAclSettings(RepositoryDatabases databases, String repository, String folderId, String aclJson,
        String commandId, Instant commandTime, int readBatch, Duration appliedCheckInterval, Backoff backoff)
        implements Serializable {
}
