package org.jfrworkbench.analysis;

import java.util.Arrays;

/**
 * A side of a diff in one pass over its weighed tree: the method statistics ({@link MethodStats}) and, per method
 * (stable name id), a fingerprint of the set of stacks (name paths) its samples have and the depth of its first
 * occurrence. Two methods with equal fingerprints on both sides lie on the same stacks (one calls the other on
 * every one of them), so their total changes are one change, reported once. A stack's hash is computed from its
 * stable names' string hashes, so equal paths hash alike in two recordings; a fingerprint is the sum of the hashes
 * of the stacks under the method's outermost occurrences.
 */
record SampleSets(MethodStats stats, long[] fingerprint, int[] depth) {

    static SampleSets of(TreeWeights w) {
        CallTree tree = w.tree();
        FrameNames names = tree.names();
        int[] stable = names.stableIds();
        int[] nameHash = names.stableHashes();
        int m = names.stableSize();
        long[] self = new long[m];
        long[] total = new long[m];
        long[] selfSamples = new long[m];
        long[] totalSamples = new long[m];
        long[] fingerprint = new long[m];
        int[] depth = new int[m];
        Arrays.fill(depth, Integer.MAX_VALUE);
        int[] onPath = new int[m];
        // the open path: each node's stable name (its complement when not the name's outermost occurrence), path
        // hash, and the sum of the hashes of the stacks below it so far, added to its parent's when it closes
        int[] openNode = new int[64];
        int[] openName = new int[64];
        long[] openHash = new long[64];
        long[] openSum = new long[64];
        int d = 0;
        for (int i = 1, n = tree.size(); i < n; ) {
            if (w.totalSamples(i) == 0) {
                i = tree.end(i);
                continue;
            }
            while (d > 0 && tree.end(openNode[d - 1]) <= i) {
                d = close(d, openName, openSum, onPath, fingerprint);
            }
            int s = stable[tree.name(i)];
            long hash = mix((d == 0 ? 17 : openHash[d - 1]) * 31 + nameHash[s]);
            self[s] += w.self(i);
            selfSamples[s] += w.selfSamples(i);
            boolean outermost = onPath[s]++ == 0;
            if (outermost) {
                total[s] += w.total(i);
                totalSamples[s] += w.totalSamples(i);
                depth[s] = Math.min(depth[s], d);
            }
            if (d == openNode.length) {
                openNode = Arrays.copyOf(openNode, d * 2);
                openName = Arrays.copyOf(openName, d * 2);
                openHash = Arrays.copyOf(openHash, d * 2);
                openSum = Arrays.copyOf(openSum, d * 2);
            }
            openNode[d] = i;
            openName[d] = outermost ? s : ~s;
            openHash[d] = hash;
            openSum[d++] = w.selfSamples(i) > 0 ? hash : 0;
            i++;
        }
        while (d > 0) {
            d = close(d, openName, openSum, onPath, fingerprint);
        }
        MethodStats stats = new MethodStats(names, self, total, selfSamples, totalSamples, w.totalWeight(), w.samples());
        return new SampleSets(stats, fingerprint, depth);
    }

    /** Closes the innermost open node: its sum goes to its parent's and, at a method's outermost, to the method's. */
    private static int close(int d, int[] openName, long[] openSum, int[] onPath, long[] fingerprint) {
        int top = d - 1;
        int s = openName[top];
        if (s >= 0) {
            fingerprint[s] += openSum[top];
            onPath[s]--;
        } else {
            onPath[~s]--;
        }
        if (top > 0) {
            openSum[top - 1] += openSum[top];
        }
        return top;
    }

    private static long mix(long k) {
        k *= 0x9E3779B97F4A7C15L;
        return k ^ (k >>> 32);
    }
}
