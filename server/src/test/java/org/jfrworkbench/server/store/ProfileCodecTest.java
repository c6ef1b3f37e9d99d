package org.jfrworkbench.server.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;

import org.jfrworkbench.importer.Importer;
import org.jfrworkbench.model.Kind;
import org.jfrworkbench.model.Profile;
import org.jfrworkbench.model.SampleTable;
import org.jfrworkbench.testkit.JfrFixture;
import org.junit.jupiter.api.Test;

class ProfileCodecTest {
    @Test
    void jfrProfileRoundTripsWithTheSameIdsAndSamples() throws Exception {
        Profile p = new Importer().read(JfrFixture.recording("a"));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ProfileCodec.write(p, out);
        Profile q = ProfileCodec.read(new ByteArrayInputStream(out.toByteArray()), out.size());
        assertEquals(p.kinds().keySet(), q.kinds().keySet());
        for (Kind k : p.kinds().keySet()) {
            SampleTable a = p.samples(k);
            SampleTable b = q.samples(k);
            assertEquals(a.size(), b.size());
            assertEquals(a.totalWeight(), b.totalWeight());
            for (int i = 0; i < a.size(); i += 7) {
                assertEquals(a.time(i), b.time(i));
                assertEquals(a.thread(i), b.thread(i));
                assertEquals(a.objectClass(i), b.objectClass(i));
                assertEquals(Arrays.toString(p.stacks().frames(a.stack(i))), Arrays.toString(q.stacks().frames(b.stack(i))));
            }
        }
        assertEquals(p.frames().size(), q.frames().size());
        for (int f = 0; f < p.frames().size(); f++) {
            assertEquals(p.frameName(f), q.frameName(f));
        }
        assertEquals(p.heap().gcs(), q.heap().gcs());
        assertEquals(p.startNanos(), q.startNanos());
        assertEquals(p.endNanos(), q.endNanos());
        assertEquals(p.chunks(), q.chunks());
        assertEquals(p.metadata(), q.metadata());
        assertEquals(p.sourceEvents(), q.sourceEvents());
    }

    @Test
    void damagedFileFailsInsteadOfAllocating() throws Exception {
        Profile p = new Importer().read(JfrFixture.recording("a"));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ProfileCodec.write(p, out);
        byte[] bytes = out.toByteArray();
        byte[] cut = Arrays.copyOf(bytes, bytes.length / 2);
        assertThrows(IOException.class, () -> ProfileCodec.read(new ByteArrayInputStream(cut), cut.length));
        byte[] huge = bytes.clone();
        huge[28] = 0x7f; // the string count
        assertThrows(IOException.class, () -> ProfileCodec.read(new ByteArrayInputStream(huge), huge.length));
    }
}
