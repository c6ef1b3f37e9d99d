package org.jfrworkbench.analysis;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

import org.jfrworkbench.model.FrameNaming;

/**
 * The default call tree in the byte form a recording's profile file keeps it in, so that loading a recording reads
 * its tree (13 bytes per node, 4 per stack) instead of building it, which takes twice as long as reading the rest
 * of the profile on deep recordings. What is read is checked against the profile it belongs to (dictionary and
 * stack counts) and for consistency; a tree that does not fit is built anew instead.
 */
public final class CallTreeCodec {
    private static final int MAGIC = 0x57425443; // "WBTC"

    private CallTreeCodec() {
    }

    /** The columns of a tree as read, not yet checked against its profile. */
    public record Stored(int names, int[] parent, int[] name, int[] end, byte[] type, int[] stackNode, int[] pairNode) {
    }

    public static void write(ProfileData data, DataOutput out) throws IOException {
        CallTree t = data.tree();
        int n = t.size();
        out.writeInt(MAGIC);
        out.writeInt(t.names().size());
        out.writeInt(n);
        out.writeInt(t.stackSlots());
        out.writeInt(t.sampleSlots() - t.stackSlots());
        for (int i = 0; i < n; i++) {
            out.writeInt(t.parent(i));
            out.writeInt(t.name(i));
            out.writeInt(t.end(i));
            out.writeByte(t.rawType(i));
        }
        for (int s = 0; s < t.sampleSlots(); s++) {
            out.writeInt(t.slotNode(s));
        }
        out.writeInt(MAGIC);
    }

    /** Reads a tree written by {@link #write}; size bounds every count (a node takes 13 bytes). */
    public static Stored read(DataInput in, long size) throws IOException {
        if (in.readInt() != MAGIC) {
            throw new IOException("call tree section is damaged (no start marker)");
        }
        int names = in.readInt();
        int n = in.readInt();
        int stackSlots = in.readInt();
        int pairs = in.readInt();
        if (names < 0 || n < 1 || stackSlots < 1 || pairs < 0 || 13L * n + 4L * (stackSlots + pairs) > size) {
            throw new IOException("call tree section is damaged (counts exceed the file)");
        }
        int[] parent = new int[n];
        int[] name = new int[n];
        int[] end = new int[n];
        byte[] type = new byte[n];
        for (int i = 0; i < n; i++) {
            parent[i] = in.readInt();
            name[i] = in.readInt();
            end[i] = in.readInt();
            type[i] = in.readByte();
        }
        int[] stackNode = new int[stackSlots];
        for (int s = 0; s < stackSlots; s++) {
            stackNode[s] = in.readInt();
        }
        int[] pairNode = new int[pairs];
        for (int p = 0; p < pairs; p++) {
            pairNode[p] = in.readInt();
        }
        if (in.readInt() != MAGIC) {
            throw new IOException("call tree section is damaged (no end marker)");
        }
        return new Stored(names, parent, name, end, type, stackNode, pairNode);
    }

    /** The stored tree as this profile's default tree, or null when it does not fit the profile or itself. */
    static CallTree restore(Stored s, FrameNames names, StackClasses classes, int stackSlots) {
        int n = s.parent().length;
        if (s.names() != names.size() || s.stackNode().length != stackSlots || s.pairNode().length != classes.pairs()
                || s.parent()[0] != -1 || s.end()[0] != n) {
            return null;
        }
        for (int i = 1; i < n; i++) {
            int p = s.parent()[i];
            // pre-order: the parent comes before, and the node lies within the parent's subtree
            if (p < 0 || p >= i || s.end()[i] <= i || s.end()[i] > s.end()[p] || s.name()[i] < 0
                    || s.name()[i] >= names.size() || (s.type()[i] & (CallTree.RECURSIVE - 1)) > CallTree.CLASS_TYPE) {
                return null;
            }
        }
        for (int[] nodes : new int[][] {s.stackNode(), s.pairNode()}) {
            for (int node : nodes) {
                if (node <= 0 || node >= n) {
                    return null;
                }
            }
        }
        return new CallTree(FrameNaming.DEFAULT, names, classes, s.parent(), s.name(), s.end(), s.type(), s.stackNode(),
                s.pairNode());
    }
}
