package org.jfrworkbench.server.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import org.jfrworkbench.importer.Importer;
import org.jfrworkbench.model.Kind;
import org.jfrworkbench.model.Profile;
import org.jfrworkbench.model.SampleTable;
import org.jfrworkbench.testkit.JfrFixture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
                assertEquals(p.states().get(a.state(i)), q.states().get(b.state(i)));
                assertEquals(p.sources().get(a.source(i)), q.sources().get(b.source(i)));
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
    void statesAndSourcesRoundTrip() throws Exception {
        Profile p = new Profile();
        SampleTable cpu = p.samples(Kind.CPU);
        int runnable = p.states().intern("STATE_RUNNABLE");
        int sleeping = p.states().intern("STATE_SLEEPING");
        int jdk = p.sources().intern("jdk");
        int profiler = p.sources().intern("async-profiler");
        cpu.add(1, 0, -1, 1, 0, runnable, jdk);
        cpu.add(2, 0, -1, 1, 0, sleeping, profiler);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ProfileCodec.write(p, out);
        Profile q = ProfileCodec.read(new ByteArrayInputStream(out.toByteArray()), out.size());
        SampleTable t = q.samples(Kind.CPU);
        assertEquals("STATE_RUNNABLE jdk", q.states().get(t.state(0)) + " " + q.sources().get(t.source(0)));
        assertEquals("STATE_SLEEPING async-profiler", q.states().get(t.state(1)) + " " + q.sources().get(t.source(1)));
        assertEquals("async-profiler", q.sources().get(t.defaultSource()));
    }

    @Test
    void aProfileOfAnEarlierVersionIsReimportedWhenTheStoreStarts(@TempDir Path data) throws Exception {
        String id;
        try (RecordingStore store = new RecordingStore(data, new Importer(), 1 << 30)) {
            id = store.importFile(JfrFixture.recording("a"), "a.jfr", java.util.Map.of("team", "x"), Kind.CPU).info().id();
        }
        Path profile = data.resolve("recordings").resolve(id).resolve(RecordingStore.PROFILE);
        byte[] bytes = Files.readAllBytes(profile);
        bytes[7] = 1; // the version of the first format, whose samples had no state or source
        Files.write(profile, bytes);
        assertThrows(ProfileCodec.OutdatedProfileException.class, () -> ProfileCodec.read(profile));
        try (RecordingStore store = new RecordingStore(data, new Importer(), 1 << 30)) {
            assertTrue(ProfileCodec.isCurrent(profile), "re-imported from the original");
            assertEquals("jdk", store.info(id).kinds().get("cpu").source());
            assertEquals("x", store.info(id).labels().get("team"));
            assertEquals("a.jfr", store.info(id).name());
            assertEquals(store.info(id).kinds().get("cpu").samples(), store.load(id).profile().samples(Kind.CPU).size());
        }
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
