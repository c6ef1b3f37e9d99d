package org.jfrworkbench.analysis;

import org.jfrworkbench.model.SampleTable;

/**
 * Per sample of a kind, the entry of an {@link InvertedTree}'s weighing that its slot's count goes to (the root's
 * slots one code past the entries), so that an inverted graph of a time range (no threads, no search, samples that weigh
 * alike) counts its samples straight into an array in the entries' order ({@link CodeCounts}, the pass the coarse
 * part's flame graphs take) and the weighing adds them reading entries and counts side by side. Through the slots
 * that was a pass into an array of the tree's sample slots, then per entry a read of its slot's count at random: on
 * a recording of a million distinct stacks each read a cache miss.
 *
 * <p>Made in the background for the default tree's kept part once an inverted graph of the kind asks; counted from
 * the kind's samples as they were then (every source's: the pass tests the source, not the codes).
 *
 * <p>Memory: 4 bytes per sample of the kind.
 */
final class InvertedCodes {
    private final InvertedTree part;
    /** The kind's samples when they were coded. */
    private final int tableSize;
    /** Per sample (the first tableSize) its entry's code. */
    private final int[] codes;

    private InvertedCodes(InvertedTree part, int tableSize, int[] codes) {
        this.part = part;
        this.tableSize = tableSize;
        this.codes = codes;
    }

    /** The codes of t's first tableSize samples in tree, whose kept inverted part is part. */
    static InvertedCodes of(CallTree tree, InvertedTree part, SampleTable t, int tableSize) {
        int[] slotEntry = part.slotEntries(tree.sampleSlots());
        return new InvertedCodes(part, tableSize, CodeCounts.sampleCodes(tree, t, tableSize, s -> slotEntry[s]));
    }

    /** Whether these codes are of part and of all of t's samples (none added since). */
    boolean codes(InvertedTree part, SampleTable t) {
        return this.part == part && tableSize == t.size();
    }

    /**
     * The selection's weights on the part (a time range and states, no threads), each sample weighing unit: the same
     * as {@link InvertedTree#weigh} of its slots. The passes in halves as parallel says.
     */
    InvertedWeighing.Weights weigh(ProfileData data, Selection s, long unit, Parallel parallel) {
        CodeCounts counts = CodeCounts.count(data.samples(s.kind()), data.blocks(s.kind()), s.filter(data), codes,
                part.entryCodes(), parallel);
        try {
            return part.weighEntries(counts.counts(), unit, parallel);
        } finally {
            counts.give();
        }
    }

    /** Heap bytes of the codes of a kind of so many samples. */
    static long footprint(long samples) {
        return 32 + 4 * samples;
    }
}
