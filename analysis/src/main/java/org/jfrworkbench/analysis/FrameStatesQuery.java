package org.jfrworkbench.analysis;

import java.util.ArrayList;
import java.util.List;

import org.jfrworkbench.importer.CollapsedFormat;
import org.jfrworkbench.model.Dictionary;
import org.jfrworkbench.model.FrameNaming;
import org.jfrworkbench.model.SampleTable;

/**
 * How the selected samples through one frame of a flame graph divide among thread states: the frame named by its
 * path from the root (names escaped as collapsed text writes them, joined by ';', as the page's {@code zoom=}; empty
 * = the root), in the graph as drawn or inverted (the path then runs from a leaf frame to its callers). The
 * selection's states filter applies, so the states add up to the samples the frame shows; samples without a
 * recorded state are counted in {@code samples} but in no state. One pass over the kind's samples.
 */
public record FrameStatesQuery(Selection selection, FrameNaming naming, boolean inverted, String path) {

    /** One state's share of the frame: its samples and their weight in the selection's unit. */
    public record State(String state, long samples, long weight) {
    }

    /** The frame's samples and weight, and its states, most samples first (empty when the kind has no states). */
    public record FrameStates(String kind, String unit, String path, boolean inverted, long samples, long weight,
                              List<State> states) {
    }

    public FrameStates run(ProfileData data) {
        SampleTable t = data.samples(selection.kind());
        CallTree tree = data.tree(naming);
        int[] names = names(tree.names(), path);
        // non-inverted: the frame is one node and its samples are those of its subtree's range
        int node = inverted ? 0 : node(tree, names);
        int lo = node;
        int hi = tree.end(node);
        byte[] slotMatch = inverted ? new byte[tree.sampleSlots()] : null; // 0 unknown, 1 through the frame, 2 not
        boolean classes = StackClasses.hasClassFrames(selection.kind());
        int stackSlots = tree.stackSlots();
        var selected = selection.on(data);
        long[] stateSamples = new long[Dictionary.MAX];
        long[] stateWeight = new long[Dictionary.MAX];
        long samples = 0;
        long weight = 0;
        for (int i = 0, size = t.size(); i < size; i++) {
            if ((i & 0xffff) == 0xffff) {
                QueryLimits.check();
            }
            if (!selected.test(i)) {
                continue;
            }
            int slot = StackClasses.slot(t.stack(i), stackSlots);
            if (classes) {
                slot = tree.allocationSlot(slot, t.objectClass(i));
            }
            boolean through;
            if (slotMatch == null) {
                int n = tree.slotNode(slot);
                through = n >= lo && n < hi;
            } else {
                if (slotMatch[slot] == 0) {
                    slotMatch[slot] = endsWith(tree, tree.slotNode(slot), names) ? (byte) 1 : (byte) 2;
                }
                through = slotMatch[slot] == 1;
            }
            if (!through) {
                continue;
            }
            long w = selection.countSamples() ? 1 : t.weight(i);
            samples++;
            weight += w;
            int state = t.state(i);
            stateSamples[state]++;
            stateWeight[state] += w;
        }
        List<State> states = new ArrayList<>();
        Dictionary stateNames = t.stateNames();
        for (int s = 1; s < Dictionary.MAX; s++) { // 0: no state recorded
            if (stateSamples[s] > 0) {
                states.add(new State(stateNames.get(s), stateSamples[s], stateWeight[s]));
            }
        }
        states.sort((a, b) -> a.samples() != b.samples() ? Long.compare(b.samples(), a.samples()) : a.state().compareTo(b.state()));
        return new FrameStates(selection.kind().id(), selection.unit(), path == null ? "" : path, inverted, samples, weight,
                states);
    }

    /** The name ids of the path's frames; a name the recording does not have is a BadQueryException. */
    private static int[] names(FrameNames dictionary, String path) {
        if (path == null || path.isEmpty()) {
            return new int[0];
        }
        List<String> parts = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < path.length(); i++) {
            if (CollapsedFormat.isSeparator(path, i)) {
                parts.add(CollapsedFormat.unescapeFrame(path, start, i));
                start = i + 1;
            }
        }
        parts.add(CollapsedFormat.unescapeFrame(path, start, path.length()));
        int[] ids = new int[parts.size()];
        for (int k = 0; k < ids.length; k++) {
            ids[k] = dictionary.find(parts.get(k));
            if (ids[k] < 0) {
                throw new BadQueryException("no frame named '" + CollapsedFormat.escapeFrame(parts.get(k)) + "' in this recording");
            }
        }
        return ids;
    }

    /** The node at the end of the path from the root; children have distinct names, so there is at most one. */
    private static int node(CallTree tree, int[] names) {
        int node = 0;
        for (int k = 0; k < names.length; k++) {
            int found = -1;
            for (int c = node + 1, end = tree.end(node); c < end; c = tree.end(c)) {
                if (tree.name(c) == names[k]) {
                    found = c;
                    break;
                }
            }
            if (found < 0) {
                throw new BadQueryException("no frame at path '" + String.join(";", prefix(tree, names, k + 1)) + "'");
            }
            node = found;
        }
        return node;
    }

    /** Whether the stack of node ends with the path read from the leaf up (the inverted graph's path). */
    private static boolean endsWith(CallTree tree, int node, int[] leafFirst) {
        for (int id : leafFirst) {
            if (node <= 0 || tree.name(node) != id) {
                return false;
            }
            node = tree.parent(node);
        }
        return true;
    }

    private static List<String> prefix(CallTree tree, int[] names, int length) {
        List<String> out = new ArrayList<>();
        for (int k = 0; k < length; k++) {
            out.add(CollapsedFormat.escapeFrame(tree.names().name(names[k])));
        }
        return out;
    }
}
