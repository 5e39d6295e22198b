package io.volumizer.campaigns.file;

import java.util.Locale;

/**
 * One step of a campaign, in the order it runs.
 *
 * @param position from 1
 * @param size     the size it belongs to (the loop's, or an explicit list's last import target); null before any
 * @param line     where the file gives it
 */
public record CampaignStep(int position, StepSpec spec, Size size, int line) {

    /** {@code import-1M}, {@code measure-1M}, {@code fault}: the kind and its size's label. */
    public String id() {
        return spec.kind() + (size == null ? "" : "-" + size.label());
    }

    /** {@code 001-import-1M}: its results file's name without {@code .json}, unique in the run. */
    public String key() {
        return String.format(Locale.ROOT, "%03d-%s", position, id());
    }
}
