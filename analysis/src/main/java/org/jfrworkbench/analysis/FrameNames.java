package org.jfrworkbench.analysis;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

import org.jfrworkbench.importer.CollapsedFormat;
import org.jfrworkbench.model.FrameNaming;
import org.jfrworkbench.model.Profile;

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
    private volatile int[] hashes;

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

    /** Each name's String hash, which is the same in every recording (diffs match frames across two). */
    int[] hashes() {
        int[] h = hashes;
        if (h == null) {
            h = new int[names.length];
            for (int i = 0; i < h.length; i++) {
                h[i] = names[i].hashCode();
            }
            hashes = h;
        }
        return h;
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
