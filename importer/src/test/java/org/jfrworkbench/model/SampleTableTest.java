package org.jfrworkbench.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class SampleTableTest {
    @Test
    void keepsEverySampleAcrossPages() {
        SampleTable t = new SampleTable(Kind.ALLOC);
        int n = 100_000;
        long total = 0;
        for (int i = 0; i < n; i++) {
            t.add(1_000L * i, i % 7, i % 13 - 1, i * 3L, i % 5);
            total += i * 3L;
        }
        assertEquals(n, t.size());
        assertEquals(total, t.totalWeight());
        for (int i = 0; i < n; i += 997) {
            assertEquals(1_000L * i, t.time(i));
            assertEquals(i % 7, t.thread(i));
            assertEquals(i % 13 - 1, t.stack(i));
            assertEquals(i * 3L, t.weight(i));
            assertEquals(i % 5, t.objectClass(i));
        }
        assertEquals(3L * (n - 1), t.weight(n - 1));
    }

    @Test
    void uniformWeightsAndClassesAreKeptUntilOneDiffers() {
        SampleTable t = new SampleTable(Kind.CPU);
        int n = 40_000;   // past the first pages, so the late columns must cover earlier pages too
        for (int i = 0; i < n; i++) {
            t.add(i, 1, 2, 1, 0);
        }
        t.add(n, 1, 2, 5, 9);
        assertEquals(n + 5L, t.totalWeight());
        for (int i = 0; i < n; i += 1999) {
            assertEquals(1, t.weight(i));
            assertEquals(0, t.objectClass(i));
        }
        assertEquals(5, t.weight(n));
        assertEquals(9, t.objectClass(n));
        t.add(n + 1, 1, 2, 1, 0);
        assertEquals(1, t.weight(n + 1));
        assertEquals(0, t.objectClass(n + 1));
    }
}
