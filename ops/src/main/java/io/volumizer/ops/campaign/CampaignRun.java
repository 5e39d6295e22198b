package io.volumizer.ops.campaign;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A campaign run's {@code run.json}: what ran where, and how it ended (docs/operations/campaigns.md). A field the
 * runner did not record is null.
 *
 * @param runId   the run's start to the second, its folder's name ({@link RunFolder#runId})
 * @param status  {@value #RUNNING}, {@value #COMPLETED}, {@value #STOPPED} or {@value #FAILED}
 * @param resumed when the run was resumed, in order
 */
public record CampaignRun(String campaign, String runId, String file, String started, String ended, String status,
        String stoppedBecause, RunMachine machine, Map<String, String> versions, List<String> resumed) {

    public static final String RUNNING = "running";
    public static final String COMPLETED = "completed";
    public static final String STOPPED = "stopped";
    public static final String FAILED = "failed";

    /** The machine the figures were measured on. */
    public record RunMachine(Integer cores, Double memoryGiB, String cpu, String os, Double diskFreeGiB) {
    }

    public CampaignRun {
        // The versions in the order they were written: the report lists them so.
        versions = versions == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(versions));
        resumed = resumed == null ? List.of() : List.copyOf(resumed);
    }

    /** A new run, {@value #RUNNING}, on the machine and versions {@code described} gives. */
    public static CampaignRun starting(String campaign, String file, Instant started, CampaignRun described) {
        return new CampaignRun(campaign, RunFolder.runId(started), file, started.toString(), null, RUNNING, null,
                described.machine(), described.versions(), List.of());
    }

    /** This run resumed {@code now}: running again, its end and the reason it stopped cleared. */
    public CampaignRun resumedAt(Instant now) {
        List<String> times = new ArrayList<>(resumed);
        times.add(now.toString());
        return new CampaignRun(campaign, runId, file, started, null, RUNNING, null, machine, versions, times);
    }

    /** This run ended {@code now} with {@code status}; {@code because} null when it completed. */
    public CampaignRun endedAt(Instant now, String status, String because) {
        return new CampaignRun(campaign, runId, file, started, now.toString(), status, because, machine, versions,
                resumed);
    }
}
