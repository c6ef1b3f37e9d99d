package org.jfrworkbench.server.index;

import java.util.List;

/** Methods across recordings, as {@code GET /api/search} answers. */
public record SearchResult(List<Hit> hits, long total) {
    public record RecordingRef(String id, String name) {
    }

    /** One method in one recording and kind: weights, shares of the kind's total, and raw sample counts. */
    public record Hit(RecordingRef recording, String method, String kind, long self, long total, double selfShare,
                      double totalShare, long selfSamples, long totalSamples) {
    }
}
