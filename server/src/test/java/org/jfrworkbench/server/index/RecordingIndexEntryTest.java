package org.jfrworkbench.server.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

import org.apache.lucene.index.DirectoryReader;
import org.jfrworkbench.analysis.Parallel;
import org.jfrworkbench.analysis.ProfileData;
import org.jfrworkbench.importer.Importer;
import org.jfrworkbench.model.Kind;
import org.jfrworkbench.server.catalog.RecordingInfo;
import org.jfrworkbench.testkit.ServiceProfile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A recording's index entry made in two halves at once (a helper thread indexing the second half of its documents)
 * finds what the entry made on one thread finds: the same recordings and the same method hits with the same figures.
 */
class RecordingIndexEntryTest {
    @TempDir
    Path dir;

    @Test
    void anEntryIndexedInTwoHalvesAtOnceSearchesAsOneIndexedOnOneThread() throws IOException {
        Path file = dir.resolve("service.collapsed");
        Files.writeString(file, ServiceProfile.collapsed(3_000, 3), StandardCharsets.UTF_8);
        ProfileData data = new ProfileData("p", new Importer().read(file, Kind.parse("cpu")));
        RecordingInfo info = RecordingInfo.of("0123456789abcdef", "00", "service", data.profile(),
                Map.of("service", "checkout"), 1, 1);
        try (RecordingIndex one = RecordingIndex.open(dir.resolve("one"));
             RecordingIndex two = RecordingIndex.open(dir.resolve("two"))) {
            RecordingIndex.Entry onOneThread = one.entry(info, data, Parallel.NEVER);
            RecordingIndex.Entry inTwoHalves = two.entry(info, data, Parallel.ALWAYS);
            try (DirectoryReader a = DirectoryReader.open(onOneThread.segment);
                 DirectoryReader b = DirectoryReader.open(inTwoHalves.segment)) {
                assertTrue(a.numDocs() > 2_000, "enough documents to be split: " + a.numDocs());
                assertEquals(a.numDocs(), b.numDocs());
                assertEquals(1, a.leaves().size());
                assertEquals(2, b.leaves().size(), "a segment per thread");
            }
            one.add(onOneThread);
            two.add(inTwoHalves);
            one.refresh();
            two.refresh();
            for (String q : List.of("method:service*", "methodpart:order", "method:\"lambda\"", "checkout", "label:service=checkout")) {
                assertEquals(one.list(q, 0, 10).total(), two.list(q, 0, 10).total(), q);
            }
            for (String q : List.of("methodpart:order", "methodpart:handler", "method:com")) {
                SearchResult a = one.searchMethods(q, "cpu", 10_000, id -> info);
                SearchResult b = two.searchMethods(q, "cpu", 10_000, id -> info);
                assertTrue(a.total() > 0, q);
                assertEquals(a.total(), b.total(), q);
                // hits of equal share may come in either order
                Comparator<SearchResult.Hit> order = Comparator.comparing(SearchResult.Hit::method);
                assertEquals(a.hits().stream().sorted(order).toList(), b.hits().stream().sorted(order).toList(), q);
            }
        }
    }
}
