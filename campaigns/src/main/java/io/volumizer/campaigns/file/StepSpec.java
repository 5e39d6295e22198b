package io.volumizer.campaigns.file;

import java.time.Duration;
import java.util.Map;

import io.volumizer.schemas.event.Permission;

/** What one step of a campaign does, by kind: each kind's fields as the campaign file gives them. */
public sealed interface StepSpec {

    /** The kind's name, as the file writes it. */
    String kind();

    /**
     * Imports and indexes until the repository holds {@code to} documents, continuing from what it holds.
     *
     * @param docsPerSecond the generator's cap; 0 for full speed
     */
    record Import(Size to, double docsPerSecond) implements StepSpec {
        @Override
        public String kind() {
            return CampaignFile.IMPORT;
        }
    }

    /**
     * Navigation and search requests at fixed (open-model) rates a second, for a while; 0 leaves a scenario out.
     *
     * @param warmUp the same requests at the same rates before, not recorded (zero: none)
     */
    record Measure(int navigationPerSecond, int searchPerSecond, Duration duration, Duration warmUp) implements StepSpec {
        @Override
        public String kind() {
            return CampaignFile.MEASURE;
        }
    }

    /** A reindex through its command, in ranges of {@code rangeSize} documents (null: the command's default). */
    record Reindex(Integer rangeSize) implements StepSpec {
        @Override
        public String kind() {
            return CampaignFile.REINDEX;
        }
    }

    /** A local service killed ({@code outage} null: SIGKILL, started again at once) or stopped for {@code outage}. */
    record Fault(String service, Duration outage) implements StepSpec {
        @Override
        public String kind() {
            return CampaignFile.FAULT;
        }
    }

    /**
     * A bulk update, as {@code bin/volumizer bulk update} asks for it: {@code properties} set (as strings) on the
     * documents the search API's {@code filters} select, or on every document when {@code all}.
     */
    record Bulk(Map<String, String> properties, Map<String, String> filters, boolean all) implements StepSpec {
        @Override
        public String kind() {
            return CampaignFile.BULK;
        }
    }

    /**
     * A setAcl command, as {@code bin/volumizer bulk set-acl} asks for it: the folder's own ACL as the repository
     * holds it, with one more entry granting {@code permission} to {@code principal}.
     */
    record Acl(String folder, String principal, Permission permission) implements StepSpec {
        @Override
        public String kind() {
            return CampaignFile.ACL;
        }
    }
}
