package org.jfrworkbench.analysis;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The light kept nodes met while the heavy ones are walked, in the order met: an item is a run of such siblings
 * (each a group of members of both sides) with no heavy node between them, up to the light weight, walked as one
 * by whichever thread takes it, and spliced into the answer before the heavy row that followed it.
 */
final class DiffItems {
    private final long aLimit;
    private final long bLimit;
    final AtomicInteger next = new AtomicInteger();
    int count;
    /** Per item: the heavy rows before it, its heavy parent, its groups in members (from .. to). */
    int[] position = new int[64];
    int[] parent = new int[64];
    int[] from = new int[64];
    int[] to = new int[64];
    /** Per group: its members on each side, then the members. */
    int[] members = new int[256];
    private int membersUsed;
    private long aWeight;
    private long bWeight;
    /** Per item, once walked: the walker whose columns hold its rows, and where. */
    DiffTree[] walker;
    int[] start;
    int[] end;

    DiffItems(long aLimit, long bLimit) {
        this.aLimit = aLimit;
        this.bLimit = bLimit;
    }

    boolean light(long aTotal, long bTotal) {
        return aTotal <= aLimit && bTotal <= bLimit;
    }

    /** A light kept group, the child of heavy row parentRow, met when position heavy rows were made. */
    void add(int position, int parentRow, int[] m, int aFrom, int aLength, int bFrom, int bLength, long aTotal,
             long bTotal) {
        int k = count - 1;
        if (k < 0 || this.position[k] != position || parent[k] != parentRow || aWeight + aTotal > aLimit
                || bWeight + bTotal > bLimit) {
            k = count++;
            if (k == this.position.length) {
                this.position = Arrays.copyOf(this.position, 2 * k);
                parent = Arrays.copyOf(parent, 2 * k);
                from = Arrays.copyOf(from, 2 * k);
                to = Arrays.copyOf(to, 2 * k);
            }
            this.position[k] = position;
            parent[k] = parentRow;
            from[k] = membersUsed;
            aWeight = 0;
            bWeight = 0;
        }
        aWeight += aTotal;
        bWeight += bTotal;
        if (membersUsed + 2 + aLength + bLength > members.length) {
            members = Arrays.copyOf(members, Math.max(membersUsed + 2 + aLength + bLength, 2 * members.length));
        }
        members[membersUsed++] = aLength;
        members[membersUsed++] = bLength;
        System.arraycopy(m, aFrom, members, membersUsed, aLength);
        membersUsed += aLength;
        System.arraycopy(m, bFrom, members, membersUsed, bLength);
        membersUsed += bLength;
        to[k] = membersUsed;
    }

    /** Once every item is met: room for where each is walked. */
    void walked() {
        walker = new DiffTree[count];
        start = new int[count];
        end = new int[count];
    }

    boolean left() {
        return next.get() < count;
    }
}
