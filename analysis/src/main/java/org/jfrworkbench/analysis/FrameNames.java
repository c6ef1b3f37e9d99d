package org.jfrworkbench.analysis;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

import org.jfrworkbench.importer.CollapsedFormat;
import org.jfrworkbench.model.FrameNaming;
import org.jfrworkbench.model.Profile;
import org.jfrworkbench.model.StableNames;

/**
 * The distinct frame names of a recording under one {@link FrameNaming} (frames that differ only by line or type
 * share a name when the naming leaves them out), then {@link CollapsedFormat#NO_STACK}, then the names of allocated
 * classes (the leaf frames of allocation graphs). Ids are given in sorted order, so children of every tree node
 * sort by their name ids, an int compare instead of a string compare.
 */
public final class FrameNames {
    private final String[] names;
    private final int[] frameName;
    private final int noStack;
    private final int[] classIds;
    private final int[] classNames;
    private volatile Stable stable;

    /**
     * The names with their run-specific parts taken out ({@link StableNames}), sorted, and each name's id among
     * them: what diffs and method statistics compare, so a lambda of two runs of the same code is one method.
     */
    private record Stable(String[] names, int[] id, int[] hashes) {
    }

    private FrameNames(String[] names, int[] frameName, int noStack, int[] classIds, int[] classNames) {
        this.names = names;
        this.frameName = frameName;
        this.noStack = noStack;
        this.classIds = classIds;
        this.classNames = classNames;
    }

    /** classIds: the string ids of the allocated classes that need a name, sorted and distinct. */
    static FrameNames of(Profile profile, FrameNaming naming, int[] classIds) {
        int frames = profile.frames().size();
        int[] frameName = new int[frames];
        Map<String, Integer> ids = new HashMap<>(frames * 2);
        String[] list = new String[frames + 1 + classIds.length];
        int n = 0;
        for (int f = 0; f < frames; f++) {
            String name = profile.frameName(f, naming);
            Integer id = ids.putIfAbsent(name, n);
            if (id == null) {
                list[n] = name;
                id = n++;
            }
            frameName[f] = id;
        }
        int noStack = n;
        Integer known = ids.putIfAbsent(CollapsedFormat.NO_STACK, n);
        if (known == null) {
            list[n++] = CollapsedFormat.NO_STACK;
        } else {
            noStack = known;
        }
        int[] classNames = new int[classIds.length];
        for (int c = 0; c < classIds.length; c++) {
            String name = profile.strings().get(classIds[c]);
            Integer id = ids.putIfAbsent(name, n);
            if (id == null) {
                list[n] = name;
                id = n++;
            }
            classNames[c] = id;
        }
        // renumber in sorted order: an id is its name's rank
        String[] sorted = Arrays.copyOf(list, n);
        Arrays.sort(sorted);
        Map<String, Integer> rank = new HashMap<>(n * 2);
        for (int i = 0; i < n; i++) {
            rank.put(sorted[i], i);
        }
        int[] renumber = new int[n];
        for (int i = 0; i < n; i++) {
            renumber[i] = rank.get(list[i]);
        }
        for (int f = 0; f < frames; f++) {
            frameName[f] = renumber[frameName[f]];
        }
        for (int c = 0; c < classNames.length; c++) {
            classNames[c] = renumber[classNames[c]];
        }
        return new FrameNames(sorted, frameName, renumber[noStack], classIds.clone(), classNames);
    }

    /**
     * A dictionary of the given names alone, sorted and distinct (no frames, no allocated classes): the names of a
     * tree merged from several recordings ({@link MergedTree}).
     */
    static FrameNames ofSorted(String[] sorted) {
        int noStack = Arrays.binarySearch(sorted, CollapsedFormat.NO_STACK);
        return new FrameNames(sorted, new int[0], noStack < 0 ? -1 : noStack, new int[0], new int[0]);
    }

    public int size() {
        return names.length;
    }

    public String name(int id) {
        return names[id];
    }

    /** Every name, indexed by id; not to be modified. */
    String[] names() {
        return names;
    }

    private Stable stable() {
        Stable s = stable;
        if (s == null) {
            String[] of = new String[names.length];
            boolean same = true;
            for (int i = 0; i < of.length; i++) {
                of[i] = StableNames.of(names[i]);
                same &= of[i].equals(names[i]);
            }
            String[] sorted;
            int[] id = new int[names.length];
            if (same) {
                // the common case: no generated names, and the names are sorted already
                sorted = names;
                for (int i = 0; i < id.length; i++) {
                    id[i] = i;
                }
            } else {
                sorted = java.util.Arrays.stream(of).distinct().sorted().toArray(String[]::new);
                for (int i = 0; i < id.length; i++) {
                    id[i] = java.util.Arrays.binarySearch(sorted, of[i]);
                }
            }
            int[] hashes = new int[sorted.length];
            for (int i = 0; i < hashes.length; i++) {
                hashes[i] = sorted[i].hashCode();
            }
            s = stable = new Stable(sorted, id, hashes);
        }
        return s;
    }

    /** Number of stable names. */
    public int stableSize() {
        return stable().names().length;
    }

    public String stableName(int stableId) {
        return stable().names()[stableId];
    }

    /** Per name id, its stable name's id. */
    int[] stableIds() {
        return stable().id();
    }

    /** Each stable name's String hash, the same in every recording (diffs match stacks across two by it). */
    int[] stableHashes() {
        return stable().hashes();
    }

    public int frameName(int frame) {
        return frameName[frame];
    }

    public int noStack() {
        return noStack;
    }

    /** The name id of an allocated class (a string id), or -1 when it is not one of this dictionary's classes. */
    public int className(int classStringId) {
        int i = Arrays.binarySearch(classIds, classStringId);
        return i < 0 ? -1 : classNames[i];
    }

    /** The id of a name, or -1 (names are sorted: a binary search). */
    public int find(String name) {
        int i = Arrays.binarySearch(names, name);
        return i < 0 ? -1 : i;
    }

    /** Approximate heap bytes: the arrays, and each name string (new strings, about as long as class + method). */
    long footprint() {
        long bytes = 64 + 4L * frameName.length + 8L * names.length + 8L * classIds.length;
        for (String s : names) {
            bytes += 48 + s.length();
        }
        return bytes;
    }
}
