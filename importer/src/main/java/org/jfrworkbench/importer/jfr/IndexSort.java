package org.jfrworkbench.importer.jfr;

/** Stable sort of an index array by a long key per index, without boxing (a merge sort). */
final class IndexSort {
    private IndexSort() {
    }

    static void byKey(int[] index, long[] key) {
        int[] buffer = new int[index.length];
        for (int width = 1; width < index.length; width *= 2) {
            for (int lo = 0; lo < index.length; lo += 2 * width) {
                int mid = Math.min(lo + width, index.length);
                int hi = Math.min(lo + 2 * width, index.length);
                int a = lo;
                int b = mid;
                for (int k = lo; k < hi; k++) {
                    buffer[k] = a < mid && (b >= hi || key[index[a]] <= key[index[b]]) ? index[a++] : index[b++];
                }
            }
            System.arraycopy(buffer, 0, index, 0, index.length);
        }
    }
}
