package org.jfrworkbench.server.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.jfrworkbench.analysis.CallTree;
import org.jfrworkbench.analysis.CallTreeCodec;
import org.jfrworkbench.analysis.FlameGraphQuery;
import org.jfrworkbench.analysis.ProfileData;
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
        p.heap().addClassCount(new org.jfrworkbench.model.ClassCount(3, p.startNanos() + 5, "com.acme.Entry", 10, 640));
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
                assertEquals(a.stack(i) < 0, b.stack(i) < 0, "a sample without a stack stays without one");
                if (a.stack(i) >= 0) {
                    assertEquals(Arrays.toString(p.stacks().frames(a.stack(i))), Arrays.toString(q.stacks().frames(b.stack(i))));
                }
            }
        }
        assertEquals(p.frames().size(), q.frames().size());
        for (int f = 0; f < p.frames().size(); f++) {
            assertEquals(p.frameName(f), q.frameName(f));
        }
        assertEquals(p.heap().gcs(), q.heap().gcs());
        assertEquals(p.heap().pools(), q.heap().pools());
        assertEquals(p.heap().classCounts(), q.heap().classCounts());
        assertEquals(1, q.heap().classCounts().size());
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
    void theProfileFileKeepsTheCallTreeSoThatLoadingDoesNotBuildIt() throws Exception {
        Profile p = new Importer().read(JfrFixture.recording("a"));
        ProfileData built = new ProfileData("a", p);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ProfileCodec.write(p, built, out);
        ProfileCodec.Decoded decoded = ProfileCodec.decode(new ByteArrayInputStream(out.toByteArray()), out.size());
        assertNotNull(decoded.tree());
        assertEquals(built.tree().size(), decoded.tree().parent().length);
        ProfileData loaded = new ProfileData("a", decoded.profile(), decoded.tree());
        assertSameTree(built, loaded);
        String cpu = new ObjectMapper().writeValueAsString(new FlameGraphQuery(Kind.CPU).run(built));
        assertEquals(cpu, new ObjectMapper().writeValueAsString(new FlameGraphQuery(Kind.CPU).run(loaded)));
    }

    @Test
    void aFileOfAnEarlierVersionIsOutdatedSinceItsGcsMayIncludeRowsThatCollectedNothing() throws Exception {
        Profile p = new Importer().read(JfrFixture.recording("a"));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ProfileCodec.write(p, out);
        byte[] v3 = out.toByteArray();
        v3[7] = 3;
        assertThrows(ProfileCodec.OutdatedProfileException.class,
                () -> ProfileCodec.decode(new ByteArrayInputStream(v3), v3.length));
    }

    @Test
    void aStoredTreeThatDoesNotFitItsProfileIsBuiltAnew() throws Exception {
        Profile a = new Importer().read(JfrFixture.recording("a"));
        Profile b = new Importer().read(JfrFixture.recording("b"));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ProfileCodec.write(a, new ProfileData("a", a), out);
        CallTreeCodec.Stored other = ProfileCodec.decode(new ByteArrayInputStream(out.toByteArray()), out.size()).tree();
        assertSameTree(new ProfileData("b", b), new ProfileData("b", b, other));
    }

    private static void assertSameTree(ProfileData expected, ProfileData actual) {
        CallTree e = expected.tree();
        CallTree t = actual.tree();
        assertEquals(e.size(), t.size());
        for (int i = 0; i < e.size(); i++) {
            assertEquals(e.parent(i), t.parent(i));
            assertEquals(e.end(i), t.end(i));
            assertEquals(e.names().name(Math.max(0, e.name(i))), t.names().name(Math.max(0, t.name(i))));
            assertEquals(e.typeName(i), t.typeName(i));
            assertEquals(e.recursive(i), t.recursive(i));
        }
        for (int s = 0; s < e.stackSlots(); s++) {
            assertEquals(e.stackNode(s), t.stackNode(s));
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
