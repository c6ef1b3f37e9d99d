package org.jfrworkbench.analysis;

import java.util.Arrays;

/**
 * Per method (stable name id, as {@link MethodStats}), a fingerprint of the set of stacks (name paths) its samples
 * have, and the depth of its first occurrence: two methods with equal fingerprints on both sides of a diff lie on the same stacks (one calls the
 * other on every one of them), so their total changes are one change, reported once. A stack's hash is computed
 * from its names' string hashes, so equal paths hash alike in two recordings; a fingerprint is the sum of the
 * hashes of the stacks under the name's outermost occurrences.
 */
record SampleSets(long[] fingerprint, int[] depth) {

    static SampleSets of(TreeWeights w) {
        CallTree tree = w.tree();
        FrameNames names = tree.names();
        int[] stable = names.stableIds();
        long[] fingerprint = new long[names.stableSize()];
        int[] depth = new int[names.stableSize()];
        int[] onPath = new int[names.stableSize()];
        int n = tree.size();
        boolean[] outermost = new boolean[n];
        Arrays.fill(depth, Integer.MAX_VALUE);
        // visited nodes in pre-order and the sums of their subtrees' stack hashes
        int[] visited = new int[n];
        long[] sum = new long[n];
        int[] parentVisit = new int[n];
        int[] nameHash = names.stableHashes();
        int v = 0;
        long[] openHash = new long[64];
        int[] openNode = new int[64];
        int[] openVisit = new int[64];
        int d = 0;
        for (int i = 1; i < n; ) {
            if (w.totalSamples(i) == 0) {
                i = tree.end(i);
                continue;
            }
            while (d > 0 && tree.end(openNode[d - 1]) <= i) {
                onPath[stable[tree.name(openNode[--d])]]--;
            }
            int s = stable[tree.name(i)];
            long hash = mix((d == 0 ? 17 : openHash[d - 1]) * 31 + nameHash[s]);
            visited[v] = i;
            sum[v] = w.selfSamples(i) > 0 ? hash : 0;
            parentVisit[v] = d == 0 ? -1 : openVisit[d - 1];
            if (d == openNode.length) {
                openNode = Arrays.copyOf(openNode, d * 2);
                openHash = Arrays.copyOf(openHash, d * 2);
                openVisit = Arrays.copyOf(openVisit, d * 2);
            }
            outermost[v] = onPath[s]++ == 0;
            if (outermost[v] && d < depth[s]) {
                depth[s] = d;
            }
            openNode[d] = i;
            openHash[d] = hash;
            openVisit[d++] = v++;
            i++;
        }
        for (int k = v - 1; k >= 0; k--) {
            if (parentVisit[k] >= 0) {
                sum[parentVisit[k]] += sum[k];
            }
            if (outermost[k]) {
                fingerprint[stable[tree.name(visited[k])]] += sum[k];
            }
        }
        return new SampleSets(fingerprint, depth);
    }

    private static long mix(long k) {
        k *= 0x9E3779B97F4A7C15L;
        return k ^ (k >>> 32);
    }
}
