package org.jfrworkbench.importer.jfr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jfrworkbench.model.Kind;
import org.jfrworkbench.model.Profile;
import org.junit.jupiter.api.Test;

class LiveBufferTest {
    @Test
    void aReportedObjectCountsAsLiveOnlyWhenAGcStartedBetweenItsAllocationAndTheReport() {
        long[] gcs = {100, 200, 300};
        assertTrue(LiveBuffer.metGc(gcs, 50, 400));
        assertTrue(LiveBuffer.metGc(gcs, 150, 200), "a GC at the report's moment counts");
        assertFalse(LiveBuffer.metGc(gcs, 200, 299), "allocated at a GC's start: not met by it");
        assertFalse(LiveBuffer.metGc(gcs, 310, 400), "allocated after the last GC");
        assertFalse(LiveBuffer.metGc(new long[0], 0, 1));
    }

    @Test
    void samplesAllocatedAfterTheLastGcAreDroppedAndTheRestUpscaledPerChunk() {
        LiveBuffer buffer = new LiveBuffer();
        buffer.add(10, 500, 0, -1, 1000, 0);   // met the GC at 100
        buffer.add(450, 500, 0, -1, 1000, 0);  // allocated after the last GC: says nothing about liveness
        buffer.endChunk(65536);
        Profile p = new Profile();
        buffer.flush(p, new long[] {100}, "async-profiler");
        assertEquals(1, p.samples(Kind.LIVE).size());
        assertEquals(LiveUpscaling.upscale(1000, 65536), p.samples(Kind.LIVE).weight(0));
        assertEquals(10, p.samples(Kind.LIVE).time(0), "the allocation time is the sample's time");

        buffer.add(450, 500, 0, -1, 1000, 0);
        buffer.endChunk(65536);
        Profile noGcs = new Profile();
        buffer.flush(noGcs, new long[0], "async-profiler");
        assertEquals(1, noGcs.samples(Kind.LIVE).size(), "without GCs nothing tells survivors from garbage: all kept");
    }
}
