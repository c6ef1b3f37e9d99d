package org.jfrworkbench.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.BitSet;
import java.util.Map;

import org.jfrworkbench.model.Kind;
import org.junit.jupiter.api.Test;

class SelectionTest {
    final HandMade h = new HandMade()
            .sample(Kind.CPU, 0, "main", 1, "m.Main.run;m.A.a")
            .sample(Kind.CPU, 999, "main", 1, "m.Main.run;m.A.a")
            .sample(Kind.CPU, 1000, "worker", 1, "m.Main.run;m.B.b")
            .sample(Kind.CPU, 1999, "worker", 1, "m.Main.run;m.B.b")
            .sample(Kind.CPU, 2000, "main", 1, "m.Main.run;m.C.c")
            .sample(Kind.ALLOC, 10, "main", 4096, "m.Main.run;m.A.a", "byte[]")
            .sample(Kind.ALLOC, 20, "main", 1024, "m.Main.run;m.A.a", "byte[]");
    final ProfileData data = h.data();

    long samples(Selection s) {
        return s.weigh(data, data.tree()).samples();
    }

    @Test
    void aRangeIncludesItsStartAndExcludesItsEnd() throws Exception {
        assertEquals(2, samples(Selection.millis(Kind.CPU, 0L, 1000L, null, false)));
        assertEquals(2, samples(Selection.millis(Kind.CPU, 1000L, 2000L, null, false)));
        assertEquals(1, samples(Selection.millis(Kind.CPU, 2000L, null, null, false)));
        assertEquals(5, samples(Selection.millis(Kind.CPU, null, null, null, false)));
        assertEquals(0, samples(Selection.millis(Kind.CPU, 1000L, 1000L, null, false)), "an empty range");
        assertEquals(h.collapsed(Kind.CPU, 1000, 2000, false), HandMade.collapse(data,
                Selection.millis(Kind.CPU, 1000L, 2000L, null, false)), "collapse counts the same samples");
    }

    @Test
    void fromAfterToIsABadQuery() {
        BadQueryException e = assertThrows(BadQueryException.class,
                () -> Selection.millis(Kind.CPU, 50L, 10L, null, false));
        assertEquals("from (50) is after to (10)", e.getMessage());
    }

    @Test
    void threadsNarrowTheSamples() throws Exception {
        BitSet worker = new BitSet();
        worker.set(h.thread("worker"));
        TreeWeights w = Selection.millis(Kind.CPU, null, null, worker, false).weigh(data, data.tree());
        assertEquals(2, w.samples());
        assertEquals(Map.of("m.Main.run;m.B.b", 2L), HandMade.collapse(data, Selection.millis(Kind.CPU, null, null, worker, false)));
    }

    @Test
    void weightIsTheKindsUnitOrOneEachSample() {
        assertEquals(5120, Selection.of(Kind.ALLOC).weigh(data, data.tree()).totalWeight());
        assertEquals("bytes", Selection.of(Kind.ALLOC).unit());
        Selection counted = new Selection(Kind.ALLOC, Long.MIN_VALUE, Long.MAX_VALUE, null, true);
        assertEquals(2, counted.weigh(data, data.tree()).totalWeight());
        assertEquals("samples", counted.unit());
    }

    @Test
    void aKindTheRecordingLacksIsABadQueryNamingTheKindsItHas() {
        BadQueryException e = assertThrows(BadQueryException.class, () -> samples(Selection.of(Kind.LOCK)));
        assertEquals("recording hand-made has no 'lock' samples (it has [cpu, alloc])", e.getMessage());
    }
}
