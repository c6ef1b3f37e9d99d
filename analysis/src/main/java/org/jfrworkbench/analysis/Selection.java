package org.jfrworkbench.analysis;

import java.util.BitSet;
import java.util.List;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.IntPredicate;

import org.jfrworkbench.model.Dictionary;
import org.jfrworkbench.model.HeapTimeline;
import org.jfrworkbench.model.Kind;
import org.jfrworkbench.model.Profile;
import org.jfrworkbench.model.SampleTable;

/**
 * Which samples a query counts, with one meaning for the CLI and the HTTP API: one kind; a time range
 * {@code [from, to)} in nanoseconds since the recording's start, half-open (open ends are Long.MIN_VALUE /
 * Long.MAX_VALUE); optionally a set of thread ids; a set of thread states as recorded (names such as
 * STATE_RUNNABLE; null = every state); one source (a sampler's name; null = the kind's default source,
 * {@link SampleTable#defaultSource()}: two sources are never summed); whether each sample weighs its value in
 * the kind's unit or counts as one sample; and, for live samples, an instant (epoch nanoseconds, a GC's start) at
 * which a sample must be known alive ({@link HeapTimeline#survivedUntil}; Long.MIN_VALUE = no such condition).
 */
public record Selection(Kind kind, long fromNanos, long toNanos, BitSet threads, Set<String> states, String source,
                        boolean countSamples, long aliveAtNanos) {

    public Selection {
        if (kind == null) {
            throw new IllegalArgumentException("kind is required");
        }
        if (fromNanos > toNanos) {
            throw new BadQueryException("from (" + fromNanos / 1_000_000 + " ms) is after to (" + toNanos / 1_000_000 + " ms)");
        }
        states = states == null || states.isEmpty() ? null : Set.copyOf(states);
        source = source == null || source.isBlank() ? null : source;
    }

    public Selection(Kind kind, long fromNanos, long toNanos, BitSet threads, Set<String> states, String source,
                     boolean countSamples) {
        this(kind, fromNanos, toNanos, threads, states, source, countSamples, Long.MIN_VALUE);
    }

    /** Every state, the default source. */
    public Selection(Kind kind, long fromNanos, long toNanos, BitSet threads, boolean countSamples) {
        this(kind, fromNanos, toNanos, threads, null, null, countSamples);
    }

    /** Every sample of a kind's default source, weighed in the kind's unit. */
    public static Selection of(Kind kind) {
        return new Selection(kind, Long.MIN_VALUE, Long.MAX_VALUE, null, false);
    }

    /** A range in whole milliseconds since the recording's start, [from, to); null leaves that end open. */
    public static Selection millis(Kind kind, Long fromMillis, Long toMillis, BitSet threads, boolean countSamples) {
        if (fromMillis != null && toMillis != null && fromMillis > toMillis) {
            throw new BadQueryException("from (" + fromMillis + ") is after to (" + toMillis + ")");
        }
        return new Selection(kind, fromMillis == null ? Long.MIN_VALUE : fromMillis * 1_000_000,
                toMillis == null ? Long.MAX_VALUE : toMillis * 1_000_000, threads, countSamples);
    }

    /** This selection limited to thread states (null or empty = every state) and one source (null = the default). */
    public Selection with(Set<String> stateNames, String sourceName) {
        return new Selection(kind, fromNanos, toNanos, threads, stateNames, sourceName, countSamples, aliveAtNanos);
    }

    public Selection withKind(Kind k) {
        return new Selection(k, fromNanos, toNanos, threads, states, source, countSamples, aliveAtNanos);
    }

    /** This selection limited to the live samples known alive at gcStartNanos (epoch nanoseconds). */
    public Selection aliveAt(long gcStartNanos) {
        return new Selection(kind, fromNanos, toNanos, threads, states, source, countSamples, gcStartNanos);
    }

    /** The unit of the weights this selection adds up. */
    public String unit() {
        return countSamples ? "samples" : kind.unit();
    }

    /**
     * Checks the states and source against what the recording has of the kind: a BadQueryException (HTTP 400, CLI
     * exit 2) names the states or sources present when one asked for is not.
     */
    public void check(Profile p) {
        SampleTable t = p.kinds().get(kind);
        if (t != null && (source != null || states != null)) {
            check(KindBreakdown.of(kind, t));
        }
    }

    /** {@link #check(Profile)} with what the recording keeps of its kinds: no pass over the samples per query. */
    public void check(ProfileData data) {
        SampleTable t = data.profile().kinds().get(kind);
        if (t != null && (source != null || states != null)) {
            check(data.blocks(kind).breakdown(t));
        }
    }

    // the query names the kinds present when it asks for the samples, so a kind absent passes here
    private void check(KindBreakdown b) {
        if (source != null && !b.sources().containsKey(source)) {
            throw new BadQueryException("unknown source '" + source + "': this recording's " + kind.id()
                    + " samples come from " + b.sources().keySet() + " (default " + b.source() + ")");
        }
        if (states != null) {
            KindBreakdown.SourceTotals shown = b.sources().get(source == null ? b.source() : source);
            Set<String> present = shown == null ? Set.of() : shown.states().keySet();
            List<String> unknown = states.stream().filter(s -> !present.contains(s)).sorted().toList();
            if (!unknown.isEmpty()) {
                throw new BadQueryException("unknown state" + (unknown.size() > 1 ? "s " : " ") + unknown + ": this recording's "
                        + kind.id() + " samples have " + (present.isEmpty() ? "no thread states" : "the states " + present));
            }
        }
    }

    /**
     * The time the selection spans within the recording, in seconds (the recording's duration when open, at least
     * a millisecond): what "per second" means in an absolute diff.
     */
    public double seconds(Profile p) {
        long duration = Math.max(0, p.endNanos() - p.startNanos());
        long from = Math.max(0, fromNanos);
        long to = Math.min(duration, toNanos);
        return Math.max(1_000_000, to - from) / 1e9;
    }

    /** Whether a sample of t (by index) is selected, for loops over t outside the call tree. */
    public IntPredicate on(SampleTable t, long recordingStartNanos) {
        Filter f = new Filter(this, t, recordingStartNanos, null);
        return i -> f.accepts(t, i);
    }

    /** Whether a sample of the selection's kind (by index) is selected, with the live samples' survival known. */
    public IntPredicate on(ProfileData data) {
        SampleTable t = data.samples(kind);
        Filter f = new Filter(this, t, data.profile().startNanos(), data.profile().heap());
        return i -> f.accepts(t, i);
    }

    /**
     * One pass over the kind's samples: each selected sample's weight goes to its stack's slot, then each slot's
     * to its node in tree. The time range is tested per block of samples ({@link SampleBlocks}) where it can be,
     * and samples that all weigh the same are only counted. A query of this package gives the weights' arrays back
     * ({@link TreeWeights#release}) once it has answered; other callers leave them to the collector.
     */
    public TreeWeights weigh(ProfileData data, CallTree tree) {
        return weigh(data, tree, true, Parallel.WHEN_SPARE);
    }

    /**
     * Samples from which the pass over them goes in two halves of their blocks at once, where parallel offers the
     * second to a helper (else in one pass, with no second set of slot arrays): below, the hand-over would cost more
     * than it saves.
     */
    static final int HALVES_FROM = 1 << 18;

    /**
     * totals: whether every node's total is summed, or only the root's ({@link TreeWeights#selfOnly}); parallel:
     * whether a long pass over the samples is two halves at once, each into slot arrays of its own.
     */
    TreeWeights weigh(ProfileData data, CallTree tree, boolean totals, Parallel parallel) {
        Slots slots = slots(data, tree, parallel);
        try {
            return slots.onTree(totals);
        } finally {
            slots.release();
        }
    }

    /**
     * The selected samples' sums per sample slot of a tree, before they go to its nodes: an inverted graph from the
     * tree's kept part adds them straight to the part's nodes ({@link InvertedTree#weigh}), with no array the size of
     * the tree. samples and weight per slot (weight null where every sample weighs unit); their arrays are of
     * {@link QueryArrays}, given back by {@link #release}.
     */
    record Slots(CallTree tree, int[] samples, long[] weight, long unit) {
        /** The slots' sums on the tree's nodes; these arrays stay the caller's to give back. */
        TreeWeights onTree(boolean totals) {
            return onTree(totals, null);
        }

        /**
         * {@link #onTree(boolean)} with every total; where the samples weigh alike, the reached nodes' counts for a cut
         * gathered into gather on the way ({@link Cut.Counts}; left empty where they differ).
         */
        TreeWeights onTree(boolean totals, Cut.Counts gather) {
            int n = tree.size();
            int[] selfSamples = QueryArrays.ints(n);
            long[] self = weight == null ? null : QueryArrays.longs(n);
            // the whole selection's figures from the slots, which are fewer than the nodes
            int count = 0;
            long sum = 0;
            int reached = 0;
            for (int s = 0; s < samples.length; s++) {
                if (samples[s] != 0) {
                    reached++;
                    int node = tree.slotNode(s);
                    selfSamples[node] += samples[s];
                    count += samples[s];
                    if (self != null) {
                        self[node] += weight[s];
                        sum += weight[s];
                    }
                }
            }
            if (!totals) {
                return TreeWeights.selfOnly(tree, self, selfSamples, unit, sum, count);
            }
            boolean sparse = reached <= samples.length / SPARSE_SHARE;
            return self == null ? new TreeWeights(tree, selfSamples, unit, unit > 0 ? gather : null, sparse)
                    : new TreeWeights(tree, self, selfSamples);
        }

        /** The weight of the slots marked in only (null: of every slot), the root's included. */
        long weightOf(boolean[] only) {
            long sum = 0;
            for (int s = 0; s < samples.length; s++) {
                if (only == null || only[s]) {
                    sum += weight == null ? unit * samples[s] : weight[s];
                }
            }
            return sum;
        }

        void release() {
            QueryArrays.give(samples);
            QueryArrays.give(weight);
        }
    }

    /**
     * A selection reaching at most this share of the tree's sample slots (1 / this: a few threads' samples, a short
     * range) reaches few of its nodes, and its totals are summed past the unreached ones ({@link TreeWeights}).
     */
    static final int SPARSE_SHARE = 8;

    /** The selection resolved against its kind's samples, for a pass over them outside this class. */
    Filter filter(ProfileData data) {
        return new Filter(this, data.samples(kind), data.profile().startNanos(), data.profile().heap());
    }

    /** The weight of each selected sample where all weigh the same (counted, or a kind of equal weights), else 0. */
    long unit(ProfileData data) {
        SampleBlocks blocks = data.blocks(kind);
        return countSamples ? 1 : blocks.uniform() ? blocks.uniformWeight() : 0;
    }

    /** The pass over the samples into their slots of tree ({@link Slots}), which the caller gives back. */
    Slots slots(ProfileData data, CallTree tree) {
        return slots(data, tree, Parallel.WHEN_SPARE);
    }

    Slots slots(ProfileData data, CallTree tree, Parallel parallel) {
        SampleTable t = data.samples(kind);
        SampleBlocks blocks = data.blocks(kind);
        Filter f = filter(data);
        long unit = unit(data);
        boolean counted = countSamples || blocks.uniform();
        int slots = tree.sampleSlots();
        int[] slotSamples;
        long[] slotWeight;
        int count = blocks.count();
        ThreadSamples byThread = f.threads == null ? null : blocks.byThread(t);
        if (byThread != null && byThread.count(f.threads) <= t.size() / BY_THREAD_SHARE) {
            // a few threads' samples: theirs only, in one pass (a fraction of the range's, no halves needed)
            SlotWeights one = SlotWeights.filled(slots, counted, (s, w) -> threadPass(t, blocks, byThread, f, tree, s, w));
            slotSamples = one.samples;
            slotWeight = one.weight;
        } else if (t.size() < HALVES_FROM || !parallel.offers()) {
            SlotWeights one = SlotWeights.filled(slots, counted, (s, w) -> pass(t, blocks, f, tree, 0, count, s, w));
            slotSamples = one.samples;
            slotWeight = one.weight;
        } else {
            // a half of the blocks each, into arrays of its own, added up after: sums, so the same in any order
            int mid = count / 2;
            Parallel.Both<SlotWeights, SlotWeights> halves = Parallel.both(
                    () -> SlotWeights.of(t, blocks, f, tree, 0, mid, slots, counted),
                    () -> SlotWeights.of(t, blocks, f, tree, mid, count, slots, counted), true, SlotWeights::give,
                    SlotWeights::give);
            slotSamples = halves.first().samples;
            slotWeight = halves.first().weight;
            int[] otherSamples = halves.second().samples;
            long[] otherWeight = halves.second().weight;
            for (int s = 0; s < slots; s++) {
                slotSamples[s] += otherSamples[s];
            }
            if (slotWeight != null) {
                for (int s = 0; s < slots; s++) {
                    slotWeight[s] += otherWeight[s];
                }
            }
            QueryArrays.give(otherSamples);
            QueryArrays.give(otherWeight);
        }
        return new Slots(tree, slotSamples, slotWeight, unit);
    }

    /**
     * A selection of threads whose samples are at most this share of the kind's (1 / this) passes over their samples
     * ({@link ThreadSamples}) instead of testing every sample of the range: a sample read from a thread's list costs
     * more than one read in order, and the range is about as large a share of either.
     */
    static final int BY_THREAD_SHARE = 3;

    /**
     * Adds the selected samples of the selected threads to their slots, each thread's from its list
     * ({@link ThreadSamples}) between the first and the last block the time range reaches; a block is skipped or
     * taken whole as in {@link #pass}.
     */
    private static void threadPass(SampleTable t, SampleBlocks blocks, ThreadSamples byThread, Filter f, CallTree tree,
                                   int[] slotSamples, long[] slotWeight) {
        boolean classes = StackClasses.hasClassFrames(t.kind());
        int stackSlots = tree.stackSlots();
        boolean range = f.lo != Long.MIN_VALUE || f.hi != Long.MAX_VALUE;
        boolean others = f.othersThanThreadsTested();
        int firstBlock = 0;
        int lastBlock = blocks.count() - 1;
        if (range) {
            while (firstBlock <= lastBlock && (blocks.max(firstBlock) < f.lo || blocks.min(firstBlock) >= f.hi)) {
                firstBlock++;
            }
            while (lastBlock >= firstBlock && (blocks.max(lastBlock) < f.lo || blocks.min(lastBlock) >= f.hi)) {
                lastBlock--;
            }
        }
        int lo = firstBlock << SampleBlocks.BITS;
        int hi = Math.min(t.size(), (lastBlock + 1) << SampleBlocks.BITS);
        int done = 0;
        for (int th = f.threads.nextSetBit(0); th >= 0 && th < byThread.threads() && lo < hi;
             th = f.threads.nextSetBit(th + 1)) {
            int block = -1;
            boolean skip = false;
            boolean times = false;
            for (int k = byThread.firstAtOrAfter(byThread.from(th), byThread.to(th), lo), to = byThread.to(th); k < to; k++) {
                int i = byThread.sample(k);
                if (i >= hi) {
                    break;
                }
                if ((++done & 0xffff) == 0) {
                    QueryLimits.check(); // a client that hung up stops its view's work here
                }
                if (range) {
                    if (i >>> SampleBlocks.BITS != block) {
                        block = i >>> SampleBlocks.BITS;
                        long min = blocks.min(block);
                        long max = blocks.max(block);
                        skip = max < f.lo || min >= f.hi;
                        times = min < f.lo || max >= f.hi;
                    }
                    if (skip) {
                        continue;
                    }
                    if (times) {
                        long time = t.time(i);
                        if (time < f.lo || time >= f.hi) {
                            continue;
                        }
                    }
                }
                if (others && !f.acceptsOthers(t, i)) {
                    continue;
                }
                // the slot's add as in pass, written out here too: one method for both took 1.13-1.15x the CPU of these
                // passes side by side (QueriesSideBySide, 250,000 stacks, ranges and thread views, one run of 40 rounds)
                int slot = StackClasses.slot(byThread.stack(k), stackSlots);
                if (classes) {
                    slot = tree.allocationSlot(slot, t.objectClass(i));
                }
                slotSamples[slot]++;
                if (slotWeight != null) {
                    slotWeight[slot] += t.weight(i);
                }
            }
        }
    }

    /** One half's sums per sample slot (weight null where only counts are kept). */
    private record SlotWeights(int[] samples, long[] weight) {
        static SlotWeights of(SampleTable t, SampleBlocks blocks, Filter f, CallTree tree, int fromBlock, int toBlock,
                              int slots, boolean counted) {
            return filled(slots, counted, (s, w) -> pass(t, blocks, f, tree, fromBlock, toBlock, s, w));
        }

        /** Arrays of the pool's filled by pass; given back if it throws (a client gone mid-pass: nobody gets them). */
        static SlotWeights filled(int slots, boolean counted, BiConsumer<int[], long[]> pass) {
            SlotWeights out = new SlotWeights(QueryArrays.ints(slots), counted ? null : QueryArrays.longs(slots));
            try {
                pass.accept(out.samples, out.weight);
            } catch (RuntimeException | Error e) {
                out.give();
                throw e;
            }
            return out;
        }

        void give() {
            QueryArrays.give(samples);
            QueryArrays.give(weight);
        }
    }

    /**
     * Adds the selected samples of blocks [fromBlock, toBlock) to their slots. The time range is tested per block
     * where it can be: a block wholly outside is skipped, one wholly inside taken without a test per sample.
     */
    private static void pass(SampleTable t, SampleBlocks blocks, Filter f, CallTree tree, int fromBlock, int toBlock,
                             int[] slotSamples, long[] slotWeight) {
        boolean classes = StackClasses.hasClassFrames(t.kind());
        int stackSlots = tree.stackSlots();
        boolean range = f.lo != Long.MIN_VALUE || f.hi != Long.MAX_VALUE;
        boolean others = f.tests && f.othersTested();
        for (int b = fromBlock, size = t.size(); b < toBlock; b++) {
            if ((b & 0xff) == 0xff) {
                QueryLimits.check(); // a client that hung up stops its view's work here
            }
            boolean times = false;
            if (range) {
                long min = blocks.min(b);
                long max = blocks.max(b);
                if (max < f.lo || min >= f.hi) {
                    continue;
                }
                times = min < f.lo || max >= f.hi;
            }
            for (int i = b << SampleBlocks.BITS, end = Math.min(size, (b + 1) << SampleBlocks.BITS); i < end; i++) {
                if (times) {
                    long time = t.time(i);
                    if (time < f.lo || time >= f.hi) {
                        continue;
                    }
                }
                if (others && !f.acceptsOthers(t, i)) {
                    continue;
                }
                int slot = StackClasses.slot(t.stack(i), stackSlots);
                if (classes) {
                    slot = tree.allocationSlot(slot, t.objectClass(i));
                }
                slotSamples[slot]++;
                if (slotWeight != null) {
                    slotWeight[slot] += t.weight(i);
                }
            }
        }
    }

    /** The selection resolved against one table: epoch bounds, the source's id, the accepted state ids. */
    static final class Filter {
        final long lo;
        final long hi;
        final BitSet threads;
        final int source;
        final boolean[] states;
        final long aliveAt;
        final HeapTimeline heap;
        /** Every sample has the selection's source (and one state). */
        final boolean oneSource;
        /** False when every sample is selected (no range, threads or states; one source throughout): no test. */
        final boolean tests;

        Filter(Selection s, SampleTable t, long start, HeapTimeline heap) {
            if (s.aliveAtNanos != Long.MIN_VALUE && heap == null) {
                throw new IllegalStateException("a selection of samples alive at a GC needs the recording's heap timeline");
            }
            aliveAt = s.aliveAtNanos;
            this.heap = heap;
            lo = s.fromNanos == Long.MIN_VALUE ? Long.MIN_VALUE : start + s.fromNanos;
            hi = s.toNanos == Long.MAX_VALUE ? Long.MAX_VALUE : start + s.toNanos;
            threads = s.threads;
            source = s.source == null ? t.defaultSource() : t.sourceNames().find(s.source);
            boolean[] accepted = null;
            if (s.states != null) {
                Dictionary names = t.stateNames();
                accepted = new boolean[Dictionary.MAX];
                for (String name : s.states) {
                    int id = names.find(name);
                    if (id >= 0) {
                        accepted[id] = true;
                    }
                }
            }
            states = accepted;
            oneSource = t.uniformStateAndSource() && t.size() > 0 && t.source(0) == source;
            tests = lo != Long.MIN_VALUE || hi != Long.MAX_VALUE || threads != null || states != null || !oneSource
                    || aliveAt != Long.MIN_VALUE;
        }

        boolean accepts(SampleTable t, int i) {
            if (lo != Long.MIN_VALUE || hi != Long.MAX_VALUE) {
                long time = t.time(i);
                if (time < lo || time >= hi) {
                    return false;
                }
            }
            return acceptsOthers(t, i);
        }

        /** Whether anything but the time is tested: threads, states, the source where several, survival. */
        boolean othersTested() {
            return threads != null || states != null || !oneSource || aliveAt != Long.MIN_VALUE;
        }

        /** Whether states, the source where several, or survival are tested: anything but the time and the threads. */
        boolean othersThanThreadsTested() {
            return states != null || !oneSource || aliveAt != Long.MIN_VALUE;
        }

        /** Every test but the time's. */
        boolean acceptsOthers(SampleTable t, int i) {
            return (threads == null || threads.get(t.thread(i))) && t.source(i) == source
                    && (states == null || states[t.state(i)])
                    && (aliveAt == Long.MIN_VALUE || heap.survivedUntil(i) >= aliveAt);
        }
    }
}
