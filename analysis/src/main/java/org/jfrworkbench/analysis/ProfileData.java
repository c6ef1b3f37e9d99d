package org.jfrworkbench.analysis;

import java.util.HashMap;
import java.util.Map;

import org.jfrworkbench.importer.CollapsedFormat;
import org.jfrworkbench.model.FrameNaming;
import org.jfrworkbench.model.Kind;
import org.jfrworkbench.model.Profile;
import org.jfrworkbench.model.SampleTable;
import org.jfrworkbench.model.StableNames;

/**
 * A loaded profile plus what every query needs from it: frame names deduplicated into a dictionary per naming
 * (frames that differ only by line or type share a name), built once and cached.
 */
public final class ProfileData {
    /** Name id used for samples without a stack. */
    public static final String NO_STACK = CollapsedFormat.NO_STACK;

    private final String id;
    private final Profile profile;
    private final Map<FrameNaming, Names> names = new HashMap<>();
    private final Map<FrameNaming, int[]> nameRanks = new HashMap<>();
    private final Map<FrameNaming, Names> stableNames = new HashMap<>();
    private final Map<FrameNaming, int[]> stableNameRanks = new HashMap<>();

    /** Distinct frame names and the name id of every frame; the last name is {@link #NO_STACK}. */
    public record Names(String[] names, int[] frameName) {
        public int noStack() {
            return names.length - 1;
        }
    }

    public ProfileData(String id, Profile profile) {
        this.id = id;
        this.profile = profile;
    }

    public String id() {
        return id;
    }

    public Profile profile() {
        return profile;
    }

    public synchronized Names names(FrameNaming naming) {
        return names.computeIfAbsent(naming, n -> dictionary(n, false));
    }

    /**
     * Like {@link #names} with the names that change from run to run made stable ({@link StableNames}): what diffs,
     * method statistics and searches compare, so a lambda of two runs of the same code is one method.
     */
    public synchronized Names stableNames(FrameNaming naming) {
        return stableNames.computeIfAbsent(naming, n -> dictionary(n, true));
    }

    public synchronized int[] stableNameRanks(FrameNaming naming) {
        return stableNameRanks.computeIfAbsent(naming, n -> TreeBuilder.nameRanks(stableNames(n).names()));
    }

    private Names dictionary(FrameNaming n, boolean stable) {
        {
            int frames = profile.frames().size();
            int[] frameName = new int[frames];
            Map<String, Integer> ids = new HashMap<>();
            java.util.List<String> list = new java.util.ArrayList<>();
            for (int f = 0; f < frames; f++) {
                String name = stable ? StableNames.of(profile.frameName(f, n)) : profile.frameName(f, n);
                Integer nid = ids.get(name);
                if (nid == null) {
                    nid = list.size();
                    ids.put(name, nid);
                    list.add(name);
                }
                frameName[f] = nid;
            }
            list.add(NO_STACK);
            return new Names(list.toArray(String[]::new), frameName);
        }
    }

    /** Position of each name of {@link #names} in sorted order, which orders the children of every tree node. */
    public synchronized int[] nameRanks(FrameNaming naming) {
        return nameRanks.computeIfAbsent(naming, n -> TreeBuilder.nameRanks(names(n).names()));
    }

    /** The samples of a kind, or a BadQueryException naming the kinds this recording has. */
    public SampleTable samples(Kind kind) {
        SampleTable t = profile.kinds().get(kind);
        if (t == null) {
            throw new BadQueryException("recording " + id + " has no '" + kind.id() + "' samples (it has "
                    + profile.kinds().keySet().stream().map(Kind::id).toList() + ")");
        }
        return t;
    }

    /**
     * Heap footprint, for the cache's budget: the model, plus room for one frame naming's name dictionary and sort
     * ranks, which are built after the profile enters the cache (frame names are new strings, about as long as the
     * class and method names together).
     */
    public long approximateBytes() {
        int frames = profile.frames().size();
        return profile.footprint() + 12L * frames + 4096 + profile.strings().footprint();
    }
}
