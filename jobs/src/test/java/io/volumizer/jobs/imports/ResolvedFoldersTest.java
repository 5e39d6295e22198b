package io.volumizer.jobs.imports;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.volumizer.schemas.acl.AclInheritance;
import io.volumizer.stores.mongodb.Ancestry;

class ResolvedFoldersTest {

    private static final Ancestry ACCOUNT = new Ancestry(List.of("root", "account"), "/bank/a", AclInheritance.none(), 1);

    @Test
    void theSubtasksOfAScopeShareOneInstanceUntilTheLastReleasesIt() {
        ResolvedFolders first = ResolvedFolders.acquire("job/import", 10);
        ResolvedFolders second = ResolvedFolders.acquire("job/import", 10);
        ResolvedFolders otherJob = ResolvedFolders.acquire("other-job/import", 10);
        first.put("account", ACCOUNT);
        assertThat(second.get("account")).contains(ACCOUNT);
        assertThat(otherJob.get("account")).isEmpty();

        first.release();
        assertThat(second.get("account")).as("one subtask still holds it").contains(ACCOUNT);
        second.release();
        ResolvedFolders restarted = ResolvedFolders.acquire("job/import", 10);
        assertThat(restarted.get("account")).as("dropped with its last subtask").isEmpty();
        restarted.release();
        otherJob.release();
    }

    @Test
    void leastRecentlyUsedOut() {
        ResolvedFolders folders = ResolvedFolders.acquire("bounded", 2);
        folders.put("a1", ACCOUNT);
        folders.put("a2", ACCOUNT);
        folders.get("a1");
        folders.put("a3", ACCOUNT);
        assertThat(folders.get("a2")).isEmpty();
        assertThat(folders.get("a1")).isPresent();
        folders.remove("a1");
        assertThat(folders.get("a1")).isEmpty();
        folders.release();
    }
}
