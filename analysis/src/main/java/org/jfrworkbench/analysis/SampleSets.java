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
        // the nodes visited, in pre-order: their outermost flag (as a sign), parent visit and subtree hash sum
        int capacity = Math.max(1024, Math.min(tree.size(), 4 * tree.stackSlots()));
        int[] visited = new int[capacity];
        int[] parentVisit = new int[capacity];
        long[] sum = new long[capacity];
        int v = 0;
        long[] openHash = new long[64];
        int[] openNode = new int[64];
        int[] openVisit = new int[64];
        int d = 0;
        for (int i = 1, n = tree.size(); i < n; ) {
            if (w.totalSamples(i) == 0) {
                i = tree.end(i);
                continue;
            }
            while (d > 0 && tree.end(openNode[d - 1]) <= i) {
                onPath[stable[tree.name(openNode[--d])]]--;
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
            if (v == visited.length) {
                visited = Arrays.copyOf(visited, v * 2);
                parentVisit = Arrays.copyOf(parentVisit, v * 2);
                sum = Arrays.copyOf(sum, v * 2);
            }
            visited[v] = outermost ? s : ~s;
            parentVisit[v] = d == 0 ? -1 : openVisit[d - 1];
            sum[v] = w.selfSamples(i) > 0 ? hash : 0;
            if (d == openNode.length) {
                openNode = Arrays.copyOf(openNode, d * 2);
                openHash = Arrays.copyOf(openHash, d * 2);
                openVisit = Arrays.copyOf(openVisit, d * 2);
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
            if (visited[k] >= 0) {
                fingerprint[visited[k]] += sum[k];
            }
        }
        MethodStats stats = new MethodStats(names, self, total, selfSamples, totalSamples, w.totalWeight(), w.samples());
        return new SampleSets(stats, fingerprint, depth);
    }

    private static long mix(long k) {
        k *= 0x9E3779B97F4A7C15L;
        return k ^ (k >>> 32);
    }
}
