package org.jfrworkbench.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ChunkRecorderTest {
    @Test
    void serviceLabelBecomesASafeFileNamePart() {
        assertEquals("checkout-v1.2_beta", ChunkRecorder.fileNamePart("checkout-v1.2_beta"));
        assertEquals("a_b_c_d_", ChunkRecorder.fileNamePart("a/b\\c d:"));
        assertEquals(".._etc_passwd", ChunkRecorder.fileNamePart("../etc/passwd"));
        assertEquals("caf_", ChunkRecorder.fileNamePart("café"));
    }
}
