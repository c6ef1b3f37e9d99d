package org.jfrworkbench.analysis;

import java.util.function.IntUnaryOperator;

import org.jfrworkbench.model.SampleTable;

/**
 * A selection's samples (of a time range and states, no threads) counted per code of a per-sample code column, as a
 * part kept beside the tree numbers them: {@link CoarseTree}'s nodes, {@link InvertedCodes}' entries. The pass skips or
 * takes a block whole by its times as the pass into slots does, and over a kind of {@link Selection#HALVES_FROM}
 * samples or more goes in two halves of the blocks at once where parallel offers the second to a helper.
 *
 * @param counts per code its selected samples, an array of {@link QueryArrays} that the caller gives back
 * @param selected the selected samples
 */
record CodeCounts(int[] counts, int selected) {
    /** The selected samples of blocks counted per code (codes: one per sample of t, each below length). */
    static CodeCounts count(SampleTable t, SampleBlocks blocks, Selection.Filter f, int[] codes, int length,
                            Parallel parallel) {
        int count = blocks.count();
        if ((t.size() >= Selection.HALVES_FROM || parallel == Parallel.ALWAYS) && parallel.offers()) {
            // a half of the blocks each, into counts of its own, added up after: sums, so the same in any order
            int mid = count / 2;
            Parallel.Both<CodeCounts, CodeCounts> halves = Parallel.both(
                    () -> pass(t, blocks, f, codes, length, 0, mid),
                    () -> pass(t, blocks, f, codes, length, mid, count), true, CodeCounts::give, CodeCounts::give);
            return halves.first().add(halves.second());
        }
        return pass(t, blocks, f, codes, length, 0, count);
    }

    /** Per sample of t (the first tableSize) the code of its slot in tree (allocations: with their class's leaf). */
    static int[] sampleCodes(CallTree tree, SampleTable t, int tableSize, IntUnaryOperator codeOfSlot) {
        boolean classes = StackClasses.hasClassFrames(t.kind());
        int stackSlots = tree.stackSlots();
        int[] codes = new int[tableSize];
        for (int i = 0; i < tableSize; i++) {
            int slot = StackClasses.slot(t.stack(i), stackSlots);
            if (classes) {
                slot = tree.allocationSlot(slot, t.objectClass(i));
            }
            codes[i] = codeOfSlot.applyAsInt(slot);
        }
        return codes;
    }

    private CodeCounts add(CodeCounts other) {
        for (int c = 0; c < counts.length; c++) {
            counts[c] += other.counts[c];
        }
        other.give();
        return new CodeCounts(counts, selected + other.selected);
    }

    void give() {
        QueryArrays.give(counts);
    }

    /**
     * Counts the selected samples of blocks [fromBlock, toBlock) by their codes. The block loop is Selection's pass into
     * slots written out again with this add: one loop with the per-sample add passed in measured slower, as Selection's
     * own two passes into slots did (1.13-1.15x the CPU with one method for both).
     */
    private static CodeCounts pass(SampleTable t, SampleBlocks blocks, Selection.Filter f, int[] codes, int length,
                                   int fromBlock, int toBlock) {
        int[] counts = QueryArrays.ints(length);
        try {
            boolean range = f.lo != Long.MIN_VALUE || f.hi != Long.MAX_VALUE;
            boolean others = f.tests && f.othersTested();
            int selected = 0;
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
                    counts[codes[i]]++;
                    selected++;
                }
            }
            return new CodeCounts(counts, selected);
        } catch (RuntimeException | Error e) {
            QueryArrays.give(counts);
            throw e;
        }
    }
}
