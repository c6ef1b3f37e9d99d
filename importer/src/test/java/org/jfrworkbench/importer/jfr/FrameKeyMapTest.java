package org.jfrworkbench.importer.jfr;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.Test;

/** The frame map answers what was put, whichever slots its keys take, and keeps the JDK's keys in one-long slots. */
class FrameKeyMapTest {
    /** A JDK method key: the class id in the high bits, the method's number in the class in the low 16. */
    private static long jdkMethod(long classId, int number) {
        return classId << 16 | number;
    }

    @Test
    void theJdksFrameKeysTakeCompactSlots() {
        FrameKeyMap map = new FrameKeyMap();
        int index = 0;
        for (long cls = 16; cls < 6000; cls += 7) {
            for (int number = 0; number < 40; number += 13) {
                map.put(FrameKeyMap.pack(jdkMethod(cls, number), number * 100, 1), index++);
            }
        }
        assertEquals(index, map.size());
        assertEquals(0, map.wideSlotEntries(), "class ids, method numbers and lines of a usual JDK recording");
        index = 0;
        for (long cls = 16; cls < 6000; cls += 7) {
            for (int number = 0; number < 40; number += 13) {
                assertEquals(index++, map.get(FrameKeyMap.pack(jdkMethod(cls, number), number * 100, 1)));
            }
        }
    }

    @Test
    void keysWithoutACompactFormGoBesideTheCompactOnes() {
        FrameKeyMap map = new FrameKeyMap();
        long[] keys = {
            FrameKeyMap.pack(5, 10, 1),                          // small method key
            FrameKeyMap.pack(jdkMethod(20, 3), 10, 1),           // the JDK's
            FrameKeyMap.pack(jdkMethod(20, 300), 10, 1),         // method number from 256 on
            FrameKeyMap.pack(jdkMethod(20, 3), 9000, 1),         // line from 8192 on
            FrameKeyMap.pack(jdkMethod(20, 3), 10, 9),           // type from 8 on
            FrameKeyMap.pack(jdkMethod(65535, 255), 8191, 7),    // the largest compact JDK key
            FrameKeyMap.pack(5, 70000, 1),                       // small method key, line from 2^16 on
        };
        for (int i = 0; i < keys.length; i++) {
            map.put(keys[i], i);
        }
        assertEquals(4, map.wideSlotEntries());
        for (int i = 0; i < keys.length; i++) {
            assertEquals(i, map.get(keys[i]), "key " + i);
        }
        assertEquals(-1, map.get(FrameKeyMap.pack(jdkMethod(20, 4), 10, 1)));
        map.clear();
        assertEquals(0, map.size());
        for (long key : keys) {
            assertEquals(-1, map.get(key));
        }
    }

    @Test
    void theCompactFormsNeverMeetAndUnpackToTheirKeys() {
        Random random = new Random(25);
        Map<Long, Long> seen = new HashMap<>();
        for (int i = 0; i < 200_000; i++) {
            long method = random.nextBoolean() ? random.nextInt(1 << 21)
                    : jdkMethod(random.nextInt(1 << 16), random.nextInt(512));
            int line = random.nextInt(4) == 0 ? random.nextInt(1 << 17) : random.nextInt(9000);
            long type = random.nextInt(20);
            long key = FrameKeyMap.pack(method, line, type);
            long k = FrameKeyMap.compactKey(key);
            if (k >= 0) {
                assertEquals(key, FrameKeyMap.unpackCompact(k));
                assertEquals(k, k & ((1L << 41) - 1), "41 bits");
                Long other = seen.putIfAbsent(k, key);
                if (other != null) {
                    assertEquals(other.longValue(), key, "two keys, one compact form");
                }
            }
        }
    }

    @Test
    void answersAsAHashMapOverMixedKeysAndAnIndexTooLargeForCompactSlots() {
        Random random = new Random(7);
        FrameKeyMap map = new FrameKeyMap();
        map.expect(1000);
        Map<Long, Integer> expected = new HashMap<>();
        for (int i = 0; i < 60_000; i++) {
            long method = switch (random.nextInt(3)) {
                case 0 -> random.nextInt(1 << 20);
                case 1 -> jdkMethod(16 + random.nextInt((1 << 16) - 16), random.nextInt(300));
                default -> random.nextLong() >>> 32;
            };
            long key = FrameKeyMap.pack(method, random.nextInt(10_000), random.nextInt(10));
            if (!expected.containsKey(key)) {
                // the last ids beyond what a compact slot holds: every entry moves to wide slots
                int index = i < 59_000 ? i : (1 << 23) + i;
                expected.put(key, index);
                map.put(key, index);
            }
            if (i % 1000 == 0 || i == 59_001) {
                for (Map.Entry<Long, Integer> e : expected.entrySet()) {
                    assertEquals((int) e.getValue(), map.get(e.getKey()));
                }
            }
        }
        assertEquals(expected.size(), map.size());
        assertEquals(expected.size(), map.wideSlotEntries(), "all wide after an index too large");
        for (Map.Entry<Long, Integer> e : expected.entrySet()) {
            assertEquals((int) e.getValue(), map.get(e.getKey()));
        }
    }
}
