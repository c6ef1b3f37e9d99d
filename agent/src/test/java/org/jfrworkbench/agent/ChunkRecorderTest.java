package org.jfrworkbench.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import org.junit.jupiter.api.Test;

class ChunkRecorderTest {
    @Test
    void serviceLabelBecomesASafeFileNamePart() {
        assertEquals("checkout-v1.2_beta", ChunkRecorder.fileNamePart("checkout-v1.2_beta"));
        assertEquals("a_b_c_d_", ChunkRecorder.fileNamePart("a/b\\c d:"));
        assertEquals(".._etc_passwd", ChunkRecorder.fileNamePart("../etc/passwd"));
        assertEquals("caf_", ChunkRecorder.fileNamePart("café"));
    }

    @Test
    void chunkStampIsUtcToTheMillisecond() {
        DateTimeFormatter oracle = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss.SSS'Z'").withZone(ZoneOffset.UTC);
        long[] moments = {0, 999, 1000, 951_782_400_000L /* 2000-02-29 */, 1_798_761_599_999L /* 2026-12-31 23:59:59.999 */,
                System.currentTimeMillis()};
        for (long millis : moments) {
            assertEquals(oracle.format(Instant.ofEpochMilli(millis)), ChunkRecorder.stamp(millis), "at " + millis);
        }
        assertEquals("20261231T235959.999Z", ChunkRecorder.stamp(1_798_761_599_999L));
        assertEquals("19700101T000000.000Z", ChunkRecorder.stamp(0));
    }
}
