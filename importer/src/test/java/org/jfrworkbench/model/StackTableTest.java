package org.jfrworkbench.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import org.junit.jupiter.api.Test;

class StackTableTest {
    /** Stacks of random depths, about 3.9 million frames (several pages), and one stack longer than a page. */
    @Test
    void keepsEveryStackAcrossPagesAndFindsEqualOnes() {
        StackTable t = new StackTable();
        Random random = new Random(42);
        int n = 1200;
        int[][] stacks = new int[n][];
        for (int i = 0; i < n; i++) {
            int depth = i == 700 ? 1_500_000 : 1 + random.nextInt(4000);
            stacks[i] = new int[depth];
            for (int d = 0; d < depth; d++) {
                stacks[i][d] = random.nextInt(1000);
            }
            stacks[i][0] = i;   // every stack distinct
            assertEquals(i, t.add(stacks[i], 0, depth, i % 3 == 0));
        }
        for (int i = 0; i < n; i++) {
            assertEquals(stacks[i].length, t.depth(i));
            assertArrayEquals(stacks[i], t.frames(i));
            assertEquals(i % 3 == 0, t.truncated(i));
            assertEquals(stacks[i][stacks[i].length - 1], t.frame(i, stacks[i].length - 1));
            // the same frames are found again
            assertEquals(i, t.add(stacks[i].clone(), 0, stacks[i].length, i % 3 == 0));
        }
        assertEquals(n, t.size());
        // the same frames with the other truncated flag are another stack
        assertEquals(n, t.add(stacks[5], 0, stacks[5].length, true));
        assertTrue(t.footprint() > 4L * 1_500_000);
    }

    /**
     * Stacks announced by reserve (as a pool announces its entries, some equal to others, some beyond what was
     * announced) are stored as without it, in pages sized to the announcement.
     */
    @Test
    void reservedStacksAreTheStacksAdded() {
        StackTable t = new StackTable();
        StackTable plain = new StackTable();
        Random random = new Random(7);
        int[][] stacks = new int[3000][];
        for (int i = 0; i < stacks.length; i++) {
            // every fifth a copy of an earlier one: found again, it takes no room of the reservation
            stacks[i] = i % 5 == 4 ? stacks[random.nextInt(i)].clone()
                    : random.ints(1 + random.nextInt(900), 0, 50_000).toArray();
        }
        int[] from = {0, 2000, 2600};
        for (int part = 0; part < from.length; part++) {
            int end = part + 1 < from.length ? from[part + 1] : stacks.length;
            long ids = 0;
            for (int i = from[part]; i < end; i++) {
                ids += stacks[i].length;
            }
            // the last part announces less than it adds
            t.reserve(end - from[part], part == 2 ? ids / 2 : ids);
            for (int i = from[part]; i < end; i++) {
                assertEquals(plain.add(stacks[i], 0, stacks[i].length, i % 7 == 0),
                        t.add(stacks[i], 0, stacks[i].length, i % 7 == 0));
            }
        }
        assertEquals(plain.size(), t.size());
        t.seal();
        for (int i = 0; i < t.size(); i++) {
            assertArrayEquals(plain.frames(i), t.frames(i));
            assertEquals(plain.truncated(i), t.truncated(i));
        }
    }
}
