package org.jfrworkbench.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jfrworkbench.importer.Importer;
import org.jfrworkbench.testkit.JfrFixture;
import org.junit.jupiter.api.Test;

/** The model is immutable after import: whatever reads it (the server, a query) cannot change it. */
class SealedProfileTest {
    @Test
    void anImportedProfileRefusesEveryChange() throws Exception {
        Profile p = new Importer().read(JfrFixture.recording("a"));
        assertTrue(p.sealed());
        SampleTable cpu = p.samples(Kind.CPU);
        int size = cpu.size();
        assertThrows(IllegalStateException.class, () -> cpu.add(1, 0, -1, 1, 0));
        assertEquals(size, cpu.size());
        assertThrows(UnsupportedOperationException.class, () -> p.labels().put("team", "x"));
        assertThrows(UnsupportedOperationException.class, () -> p.metadata().put("javaVersion", "1"));
        assertThrows(UnsupportedOperationException.class, () -> p.warnings().add("x"));
        assertThrows(IllegalStateException.class, () -> p.warn("x"));
        assertThrows(IllegalStateException.class, () -> p.states().intern("STATE_NEW_ONE"));
        assertThrows(IllegalStateException.class, () -> p.samples(Kind.NATIVEMEM).add(1, 0, -1, 1, 0),
                "a kind the recording lacks reads as empty and takes no sample either");
        assertEquals(0, p.samples(Kind.NATIVEMEM).size());
    }
}
