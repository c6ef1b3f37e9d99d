package org.jfrworkbench.server.catalog;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;

import org.jfrworkbench.analysis.KindBreakdown;
import org.jfrworkbench.model.JavaVersion;
import org.jfrworkbench.model.Kind;
import org.jfrworkbench.model.Profile;
import org.jfrworkbench.model.SampleTable;

/**
 * What the API says about a stored recording; kept beside the profile as meta.json and in the index. A run (a
 * recording that grows part by part, see {@code RecordingLibrary#addPart}) has its run key, the part numbers stored
 * (sorted; the meta.json that lists them is what counts a stored part), the part marked last (if any), the time of
 * its last change and the time origin its uploader pinned (epoch ms, 0 = none); a plain upload has run null and no parts.
 */
@JsonIgnoreProperties(value = {"parts", "ended"}, allowGetters = true)
public record RecordingInfo(String id, String sha256, String name, Map<String, String> labels,
                            long startMillis, long durationMillis, int chunks, Map<String, KindSummary> kinds,
                            Map<String, String> jvm, long sizeBytes, long uploadedMillis,
                            String run, List<Integer> partNumbers, Integer lastPart, long updatedMillis,
                            long runStartMillis) {

    /** Masks secrets in the JVM facts however the info is made: from a new import, meta.json or the index. */
    public RecordingInfo {
        jvm = Secrets.mask(jvm);
        partNumbers = partNumbers == null ? List.of() : List.copyOf(partNumbers);
        updatedMillis = updatedMillis == 0 ? uploadedMillis : updatedMillis;
    }

    /** Parts stored (0 for a plain upload). */
    @JsonProperty("parts")
    public int parts() {
        return partNumbers.size();
    }

    /** Whether the run was marked ended: its part marked last is the highest part stored (a plain upload: true). */
    @JsonProperty("ended")
    public boolean ended() {
        return run == null || lastPart != null && !partNumbers.isEmpty() && lastPart.equals(partNumbers.get(partNumbers.size() - 1));
    }

    /** The same recording as a run: the given run fields, the rest unchanged. */
    public RecordingInfo asRun(String runKey, List<Integer> parts, Integer last, long updated, long runStart) {
        return new RecordingInfo(id, sha256, name, labels, startMillis, durationMillis, chunks, kinds, jvm, sizeBytes,
                uploadedMillis, runKey, parts, last, updated, runStart);
    }

    /**
     * Sample count, total weight and unit of one kind, of its default source; every source with its totals and thread
     * states, and the default source's states (see {@link KindBreakdown}).
     */
    public record KindSummary(long samples, long weight, String unit, String source,
                              Map<String, KindBreakdown.SourceTotals> sources, Map<String, Long> states) {
    }

    /**
     * The info of an imported profile; uploadLabels (given with the upload) are added to the labels recorded in the
     * file here, never into the profile, which is not changed after import.
     */
    public static RecordingInfo of(String id, String sha256, String name, Profile p, Map<String, String> uploadLabels,
                                   long sizeBytes, long uploadedMillis) {
        Map<String, KindSummary> kinds = new LinkedHashMap<>();
        for (Map.Entry<Kind, SampleTable> e : p.kinds().entrySet()) {
            KindBreakdown b = KindBreakdown.of(e.getKey(), e.getValue());
            kinds.put(e.getKey().id(), new KindSummary(b.samples(), b.weight(), b.unit(), b.source(), b.sources(),
                    b.states()));
        }
        Map<String, String> labels = new LinkedHashMap<>(p.labels());
        labels.putAll(uploadLabels);
        return new RecordingInfo(id, sha256, name, labels, p.startMillis(), p.durationMillis(),
                p.chunks(), kinds, new LinkedHashMap<>(p.metadata()), sizeBytes, uploadedMillis, null, null, null, 0, 0);
    }

    /**
     * The Java feature version ("8", "25"): the importer's javaFeature, else derived from the stored facts (infos
     * written before javaFeature existed), never HotSpot's own version (JDK 8's "25.144-b01" is Java 8).
     */
    public String javaMajor() {
        String feature = jvm.getOrDefault("javaFeature", "");
        return !feature.isEmpty() ? feature
                : JavaVersion.feature(null, null, null, jvm.get("javaVersion"), jvm.get("jvmVersion"));
    }
}
