package org.jfrworkbench.server.catalog;

import java.util.LinkedHashMap;
import java.util.Map;

import org.jfrworkbench.model.Kind;
import org.jfrworkbench.model.Profile;
import org.jfrworkbench.model.SampleTable;

/** What the API says about a stored recording; kept beside the profile as meta.json and in the index. */
public record RecordingInfo(String id, String sha256, String name, Map<String, String> labels,
                            long startMillis, long durationMillis, int chunks, Map<String, KindSummary> kinds,
                            Map<String, String> jvm, long sizeBytes, long uploadedMillis) {

    /** Sample count, total weight and unit of one kind. */
    public record KindSummary(long samples, long weight, String unit) {
    }

    public static RecordingInfo of(String id, String sha256, String name, Profile p, long sizeBytes, long uploadedMillis) {
        Map<String, KindSummary> kinds = new LinkedHashMap<>();
        for (Map.Entry<Kind, SampleTable> e : p.kinds().entrySet()) {
            kinds.put(e.getKey().id(), new KindSummary(e.getValue().size(), e.getValue().totalWeight(), e.getKey().unit()));
        }
        return new RecordingInfo(id, sha256, name, new LinkedHashMap<>(p.labels()), p.startMillis(), p.durationMillis(),
                p.chunks(), kinds, new LinkedHashMap<>(p.metadata()), sizeBytes, uploadedMillis);
    }

    /** The Java feature version ("25") from javaVersion / jvmVersion metadata, or "" when unknown. */
    public String javaMajor() {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("^(1\\.)?(\\d+)")
                .matcher(jvm.getOrDefault("javaVersion", "").trim());
        if (m.find()) {
            return m.group(2);
        }
        // "OpenJDK 64-Bit Server VM (25.0.3+9-LTS) for linux-amd64 ..."
        m = java.util.regex.Pattern.compile("\\((1\\.)?(\\d+)[.+\\-)]").matcher(jvm.getOrDefault("jvmVersion", ""));
        return m.find() ? m.group(2) : "";
    }
}
