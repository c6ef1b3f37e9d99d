package org.jfrworkbench.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.jfrworkbench.importer.Importer;
import org.jfrworkbench.model.GcEvent;
import org.jfrworkbench.model.Kind;
import org.jfrworkbench.model.Profile;

/** Reads the agent's chunk files with the workbench's importer: what the server will show of them. */
final class Imported {
    private Imported() {
    }

    static Profile read(Path file) throws IOException {
        return new Importer().read(file);
    }

    /** All chunk files as one recording, the way record.sh concatenates them (a JFR file is a sequence of chunks). */
    static Profile readAll(List<Path> files, Path scratch) throws IOException {
        try (OutputStream out = Files.newOutputStream(scratch)) {
            for (Path f : files) {
                Files.copy(f, out);
            }
        }
        return read(scratch);
    }

    static int samples(Profile p, Kind kind) {
        return p.kinds().containsKey(kind) ? p.kinds().get(kind).size() : 0;
    }

    /** Every chunk's labels, as the importer reads them. */
    static void assertLabels(Profile p, Path chunk, String service) {
        assertEquals(service, p.labels().get("service"), chunk + " labels " + p.labels());
        assertTrue(p.labels().containsKey("host") && p.labels().containsKey("pid"), chunk + " labels " + p.labels());
    }

    /** GCs with the heap used before and after: all but the few a chunk boundary or a late notification cut in half. */
    static void assertGcsWithBeforeAndAfter(Profile p, Path chunk, int atLeast) {
        List<GcEvent> gcs = p.heap().gcs();
        long complete = gcs.stream().filter(g -> g.heapUsedBefore() >= 0 && g.heapUsedAfter() >= 0).count();
        assertTrue(gcs.size() >= atLeast, chunk + ": " + gcs.size() + " GCs");
        assertTrue(complete >= gcs.size() - Math.max(2, gcs.size() / 10), chunk + ": " + complete + " of " + gcs.size()
                + " GCs have used before/after: " + gcs);
        assertTrue(gcs.stream().allMatch(g -> g.heapUsedAfter() < 0 || g.heapCommitted() < 0 || g.heapCommitted() >= g.heapUsedAfter()),
                "committed >= used after: " + gcs);
    }
}
