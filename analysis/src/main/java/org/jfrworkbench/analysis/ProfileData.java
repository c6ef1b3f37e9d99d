package org.jfrworkbench.analysis;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

import org.jfrworkbench.importer.CollapsedFormat;
import org.jfrworkbench.model.FrameNaming;
import org.jfrworkbench.model.Kind;
import org.jfrworkbench.model.Profile;
import org.jfrworkbench.model.SampleTable;

/**
 * A loaded profile plus what every query needs from it: its call tree with the default frame names (built when the
 * profile is loaded and kept with it), on demand the trees of other frame namings (lines, signatures: at most
 * {@link #MAX_OTHER_TREES}, least recently used dropped first), and the matches of recent search patterns (per
 * name, and per sample slot of a tree).
 * Inverted views need no tree of their own ({@link BoundedTree}).
 */
public final class ProfileData {
    /** The frame of samples without a stack. */
    public static final String NO_STACK = CollapsedFormat.NO_STACK;
    /** Trees of other namings kept per recording (there are three: lines, signatures, both). */
    static final int MAX_OTHER_TREES = 2;
    private static final int MAX_SEARCHES = 8;

    private final String id;
    private final Profile profile;
    private final StackClasses classes;
    private final CallTree tree;
    private final Map<FrameNaming, FrameNames> names = new LinkedHashMap<>(8, 0.75f, true);
    private final Map<FrameNaming, CompletableFuture<CallTree>> otherTrees = new LinkedHashMap<>(8, 0.75f, true);
    private final Map<SearchKey, boolean[]> searches = new LinkedHashMap<>(16, 0.75f, true);
    private final Map<SearchKey, SlotMatches> slotSearches = new LinkedHashMap<>(16, 0.75f, true);
    private final Map<Kind, Long> intervals = new java.util.concurrent.ConcurrentHashMap<>();
    private final Map<Kind, SampleBlocks> blocks = new java.util.concurrent.ConcurrentHashMap<>();
    /** Per kind and source the default tree's coarse part ({@link CoarseTree}), empty where none is kept. */
    private final Map<String, CompletableFuture<Optional<CoarseTree>>> coarse =
            new java.util.concurrent.ConcurrentHashMap<>();
    /** Per kind the codes of its samples in the default tree's inverted part ({@link InvertedCodes}), empty: none. */
    private final Map<Kind, CompletableFuture<Optional<InvertedCodes>>> invertedCodes =
            new java.util.concurrent.ConcurrentHashMap<>();
    /** Whether inverted codes are made (tests turn them off to compare with the graphs through the slots). */
    private volatile boolean codesInverted = true;
    /** Set once the recording is deleted: what is queued for it on the {@link Background} thread is then skipped. */
    private volatile boolean discarded;
    /** The coarse parts' most nodes: w0 is chosen to leave at most these ({@link CoarseTree#of}); 0: none made. */
    private volatile int coarseNodes = CoarseTree.NODES_PER_ANSWER_NODE * FlameGraphQuery.DEFAULT_MAX_NODES;


    private record SearchKey(FrameNaming naming, SearchPattern pattern) {
    }

    /** A pattern's matching sample slots of one tree ({@link CallTree#slotsThrough}). */
    private record SlotMatches(CallTree tree, boolean[] slots) {
    }

    /** Builds the default call tree. */
    public ProfileData(String id, Profile profile) {
        this(id, profile, null);
    }

    /** Uses a stored default call tree when it fits the profile ({@link CallTreeCodec}), else builds it. */
    public ProfileData(String id, Profile profile, CallTreeCodec.Stored stored) {
        this.id = id;
        this.profile = profile;
        this.classes = StackClasses.of(profile);
        FrameNames defaultNames = names(FrameNaming.DEFAULT);
        CallTree restored = stored == null ? null
                : CallTreeCodec.restore(stored, defaultNames, classes, profile.stacks().size() + 1);
        this.tree = restored != null ? restored : CallTreeBuilder.build(profile, FrameNaming.DEFAULT, defaultNames, classes);
    }

    public String id() {
        return id;
    }

    public Profile profile() {
        return profile;
    }

    /**
     * The frame names of a naming, built once and kept while recently used: the default naming's always, at most
     * {@link #MAX_OTHER_TREES} others (a recording of a million distinct frames has tens of MB of names per naming).
     */
    public FrameNames names(FrameNaming naming) {
        synchronized (names) {
            FrameNames n = names.computeIfAbsent(naming, k -> FrameNames.of(profile, k, classes.distinctClasses()));
            while (names.size() > 1 + MAX_OTHER_TREES) {
                FrameNaming eldest = names.keySet().stream().filter(k -> !k.equals(FrameNaming.DEFAULT)).findFirst()
                        .orElseThrow();
                names.remove(eldest);
            }
            return n;
        }
    }

    /** The call tree with the default frame names, root first. */
    public CallTree tree() {
        return tree;
    }

    /**
     * What a recording's first views would otherwise make, made on the {@link Background} thread now: the default
     * tree's inverted part, then each kind's samples listed per thread. In that order: the lists are the lighter work,
     * and queued first they made the first view after an upload share the processors with them too (UploadBench).
     */
    public void prepareInBackground() {
        prepareInvertedGraphs();
        prepareThreadLists();
    }

    /**
     * Has the default tree's inverted part ({@link InvertedTree}) made on its own thread now rather than on the first
     * inverted graph: until it is made inverted graphs are grouped per query, several times slower on deep recursion
     * (140 to 400 ms against 40 to 60 on a compiler's recording). Its bytes are in {@link #approximateBytes} anyway.
     */
    public void prepareInvertedGraphs() {
        tree.inverted();
    }

    /**
     * Has each kind's samples listed per thread ({@link ThreadSamples}) on the {@link Background} thread now, rather
     * than on the kind's first query of threads, which paid for it (a pass over the kind's samples: 19 ms on a
     * compiler's 860,539 cpu samples, 60 ms on 2,500,000). A query that comes first makes them itself; one that comes
     * while they are being made waits for that pass. Their bytes are in {@link #approximateBytes} anyway.
     */
    public void prepareThreadLists() {
        Background.later(() -> {
            if (discarded) {
                return;
            }
            try {
                for (Kind kind : profile.kinds().keySet()) {
                    blocks(kind).prepareByThread(samples(kind));
                }
            } catch (OutOfMemoryError e) {
                // not made: the first query of threads makes them, as without this
            }
        });
    }

    /**
     * Marks the recording deleted, so that the work queued for it on the {@link Background} thread (its inverted part,
     * thread lists and coarse parts: seconds on a large recording) is skipped rather than delaying every recording
     * queued behind it. A view still reading it makes what it needs itself, as when the queue was full.
     */
    public void discard() {
        discarded = true;
        tree.discard();
    }

    /** Whether {@link #discard} was called. */
    public boolean discarded() {
        return discarded;
    }

    /** Whether every kind's samples are listed per thread by now. */
    public boolean threadListsPrepared() {
        for (Kind kind : profile.kinds().keySet()) {
            SampleBlocks b = blocks.get(kind);
            if (b == null || !b.byThreadMade()) {
                return false;
            }
        }
        return true;
    }

    /** Whether the default tree's inverted part is made and kept (not while it is being made, nor where too large). */
    public boolean invertedGraphsPrepared() {
        return tree.invertedIfMade() != null;
    }

    /** The call tree of a naming; built on first use and kept while recently used. */
    public CallTree tree(FrameNaming naming) {
        if (naming.equals(FrameNaming.DEFAULT)) {
            return tree;
        }
        FrameNaming key = naming;
        CompletableFuture<CallTree> future;
        boolean build = false;
        synchronized (otherTrees) {
            future = otherTrees.get(key);
            if (future == null) {
                future = new CompletableFuture<>();
                otherTrees.put(key, future);
                build = true;
                while (otherTrees.size() > MAX_OTHER_TREES) {
                    otherTrees.remove(otherTrees.keySet().iterator().next());
                }
            }
        }
        if (build) {
            try {
                future.complete(CallTreeBuilder.build(profile, naming, names(naming), classes));
            } catch (RuntimeException | Error e) {
                synchronized (otherTrees) {
                    otherTrees.remove(key, future);
                }
                future.completeExceptionally(e);
                throw e;
            }
        }
        return future.join();
    }

    /** Which names of a naming's dictionary the pattern finds; the last few patterns' answers are kept. */
    boolean[] matches(FrameNaming naming, SearchPattern pattern) {
        SearchKey key = new SearchKey(naming, pattern);
        synchronized (searches) {
            boolean[] m = searches.get(key);
            if (m != null) {
                return m;
            }
        }
        boolean[] m = pattern.matchAll(names(naming).names());
        synchronized (searches) {
            searches.put(key, m);
            while (searches.size() > MAX_SEARCHES) {
                searches.remove(searches.keySet().iterator().next());
            }
        }
        return m;
    }

    /**
     * Per sample slot of tree (this recording's tree of naming) whether its stack has a frame the pattern finds; the
     * last few patterns' answers are kept, as their names' matches are.
     */
    boolean[] matchingSlots(CallTree tree, FrameNaming naming, SearchPattern pattern) {
        SearchKey key = new SearchKey(naming, pattern);
        synchronized (slotSearches) {
            SlotMatches m = slotSearches.get(key);
            if (m != null && m.tree() == tree) {
                return m.slots();
            }
        }
        boolean[] slots = tree.slotsThrough(matches(naming, pattern));
        synchronized (slotSearches) {
            slotSearches.put(key, new SlotMatches(tree, slots));
            while (slotSearches.size() > MAX_SEARCHES) {
                slotSearches.remove(slotSearches.keySet().iterator().next());
            }
        }
        return slots;
    }

    /**
     * The coarse part of tree for the selection's kind and source if made by now (tree: this recording's default tree;
     * a tree of another naming has none); else null, and the first call has it made on the {@link Background} thread.
     * A view never waits for it, as for the inverted part.
     */
    CoarseTree coarse(CallTree tree, Selection s) {
        if (tree != this.tree || coarseNodes == 0) {
            return null;
        }
        CoarseTree c = madeLater(coarse, coarseKey(s), () -> makeCoarse(s));
        // counted from the kind's samples as they were: a table grown since (as the blocks allow) is not bounded by it
        return c != null && c.tableSize() == samples(s.kind()).size() ? c : null;
    }

    /** {@link #coarse}, waiting until it is made (having it made if not asked yet); null where none is kept. */
    CoarseTree awaitCoarse(Selection s) {
        return coarseNodes == 0 ? null : awaitMade(coarse, coarseKey(s), () -> coarse(tree, s));
    }

    /** The coarse parts are per kind and source: a selection of one source counts that source's samples only. */
    private static String coarseKey(Selection s) {
        return s.kind().id() + '/' + s.source();
    }

    /** Sets the coarse parts' most nodes (0: none), before any is asked for: tests make small parts of small trees. */
    ProfileData coarseNodes(int nodes) {
        coarseNodes = nodes;
        return this;
    }

    /** Every sample of the selection's kind and source, counted per slot, and the coarse part of the tree from them. */
    private CoarseTree makeCoarse(Selection s) {
        // the size before the pass: samples added meanwhile make it differ, and the part go unused
        int size = samples(s.kind()).size();
        Selection all = new Selection(s.kind(), Long.MIN_VALUE, Long.MAX_VALUE, null, null, s.source(), true);
        Selection.Slots slots = all.slots(this, tree, Parallel.NEVER);
        try {
            return CoarseTree.of(tree, slots.samples(), coarseNodes, samples(s.kind()), size);
        } finally {
            slots.release();
        }
    }

    /**
     * The codes of the selection's kind in inv, the kept inverted part of tree (this recording's default tree; another
     * naming's tree has none), if made by now; else null, and the first call has them made on the {@link Background}
     * thread. A view never waits for them, as for the part itself.
     */
    InvertedCodes invertedCodes(CallTree tree, InvertedTree inv, Selection s) {
        if (tree != this.tree || !codesInverted) {
            return null;
        }
        InvertedCodes c = madeLater(invertedCodes, s.kind(), () -> {
            SampleTable t = samples(s.kind());
            return InvertedCodes.of(tree, inv, t, t.size());
        });
        // coded from the kind's samples as they were: a sample added since has no code
        return c != null && c.codes(inv, samples(s.kind())) ? c : null;
    }

    /** {@link #invertedCodes}, waiting until they are made (having them made if not asked yet); null where none. */
    InvertedCodes awaitInvertedCodes(Selection s) {
        InvertedTree inv = tree.awaitInverted();
        if (inv == null || !codesInverted) {
            return null;
        }
        return awaitMade(invertedCodes, s.kind(), () -> invertedCodes(tree, inv, s));
    }

    /** Turns the inverted codes off (before any is asked for): tests compare graphs through the slots with them. */
    ProfileData withoutInvertedCodes() {
        codesInverted = false;
        return this;
    }

    /**
     * What made holds under key if made by now (null while it is being made, or where none is kept); else null, and
     * the first call has make run on the {@link Background} thread (none kept where it fails, runs out of memory or the
     * recording was deleted meanwhile: views then do without, as before it was made). A refused queue leaves it to
     * the next call.
     */
    private <K, V> V madeLater(Map<K, CompletableFuture<Optional<V>>> made, K key, Supplier<V> make) {
        CompletableFuture<Optional<V>> part = made.get(key);
        if (part == null) {
            CompletableFuture<Optional<V>> mine = new CompletableFuture<>();
            if (made.putIfAbsent(key, mine) == null && !Background.later(() -> mine.complete(tryMaking(make)))) {
                made.remove(key, mine);
            }
            return null;
        }
        Optional<V> v = part.getNow(null);
        return v == null ? null : v.orElse(null);
    }

    private <V> Optional<V> tryMaking(Supplier<V> make) {
        if (discarded) {
            return Optional.empty();
        }
        try {
            return Optional.ofNullable(make.get());
        } catch (RuntimeException | OutOfMemoryError e) {
            return Optional.empty();
        }
    }

    /** What {@link #madeLater} holds under key, waiting until it is made; ask has it made if not asked yet. */
    private static <K, V> V awaitMade(Map<K, CompletableFuture<Optional<V>>> made, K key, Runnable ask) {
        CompletableFuture<Optional<V>> part;
        while ((part = made.get(key)) == null) {
            ask.run();
            Thread.onSpinWait();
        }
        return part.join().orElse(null);
    }

    /** The estimated sampling interval of a time-sampled kind in nanoseconds ({@link SamplingInterval}), 0 if unknown. */
    long samplingInterval(Kind kind) {
        return intervals.computeIfAbsent(kind, k -> SamplingInterval.estimate(samples(k)));
    }

    /** The blocks of a kind's samples ({@link SampleBlocks}), made on the kind's first query. */
    SampleBlocks blocks(Kind kind) {
        SampleTable t = samples(kind);
        SampleBlocks b = blocks.get(kind);
        if (b == null || b.size() != t.size()) {
            // made once, also when a query and the background ask at once: the lists are made on the one kept
            b = blocks.compute(kind, (k, old) -> old == null || old.size() != t.size() ? SampleBlocks.of(t) : old);
        }
        return b;
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
     * Heap footprint, for the cache's budget: the model, the default tree and names, and room for the other trees
     * and one more naming's names that queries may add later (each about the default's size), each tree's inverted
     * part ({@link InvertedTree}, made on the first inverted graph), the recent searches' matches (a byte per name and
     * per sample slot), each kind's {@link SampleBlocks} and its samples listed per thread ({@link ThreadSamples}, made
     * by {@link #prepareThreadLists} or the kind's first query of threads), and its coarse part of the tree for flame
     * graphs ({@link CoarseTree}, made on the kind's first flame graph; one source's counted; a code per sample) and its
     * samples' codes in the inverted part ({@link InvertedCodes}, made on the kind's first inverted graph; a code per
     * sample).
     */
    public long approximateBytes() {
        FrameNames defaultNames = names(FrameNaming.DEFAULT);
        return profile.footprint() + classes.footprint()
                + (1 + MAX_OTHER_TREES) * (tree.footprint() + InvertedTree.footprintBound(tree))
                + (1 + MAX_OTHER_TREES) * defaultNames.footprint() + MAX_SEARCHES * (16L + defaultNames.size())
                + MAX_SEARCHES * (16L + tree.sampleSlots())
                + profile.kinds().values().stream().mapToLong(t -> SampleBlocks.footprint(t.size())
                        + ThreadSamples.footprint(t.size(), profile.threads().size())
                        + CoarseTree.footprint(Math.min(coarseNodes, tree.size() / 2), tree.sampleSlots(), t.size())
                        + InvertedCodes.footprint(t.size()))
                .sum();
    }
}
