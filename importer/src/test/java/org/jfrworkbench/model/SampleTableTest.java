package org.jfrworkbench.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;

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

    @Test
    void keepsExactValuesWhenColumnsMustWiden() {
        SampleTable t = new SampleTable(Kind.LOCK);
        Random random = new Random(42);
        int n = 70_000;
        long[] times = new long[n];
        int[] threads = new int[n];
        long[] weights = new long[n];
        long now = 1_700_000_000_000_000_000L;
        for (int i = 0; i < n; i++) {
            // mostly close together and out of order, sometimes seconds apart or back in time (concatenated recordings)
            now += random.nextInt(100) == 0 ? (random.nextBoolean() ? 5_000_000_000L : -20_000_000_000L) : random.nextInt(2_000_000);
            times[i] = now - random.nextInt(1_000_000);
            threads[i] = i < 50_000 ? random.nextInt(300) : random.nextInt(100_000);   // past a char from sample 50,000 on
            weights[i] = i < 30_000 ? random.nextInt(1_000_000) : random.nextLong(1L << 40);   // past an int from 30,000 on
            t.add(times[i], threads[i], i, weights[i], 0);
        }
        assertEquals(n, t.size());
        long total = 0;
        for (int i = 0; i < n; i++) {
            assertEquals(times[i], t.time(i), "time " + i);
            assertEquals(threads[i], t.thread(i), "thread " + i);
            assertEquals(i, t.stack(i));
            assertEquals(weights[i], t.weight(i), "weight " + i);
            total += weights[i];
        }
        assertEquals(total, t.totalWeight());
    }

    @Test
    void timesFarApartInOnePageAreKept() {
        SampleTable t = new SampleTable(Kind.LIVE);
        int n = 20_000;
        for (int i = 0; i < n; i++) {
            t.add(i % 3 == 0 ? Long.MAX_VALUE - i : i * 3_000_000_000L, 1, -1, 1, 0);
        }
        for (int i = 0; i < n; i++) {
            assertEquals(i % 3 == 0 ? Long.MAX_VALUE - i : i * 3_000_000_000L, t.time(i));
            assertEquals(1, t.weight(i));
        }
    }
}
