package org.jfrworkbench.analysis;

import java.io.IOException;
import java.util.Arrays;

import org.jfrworkbench.importer.CollapsedFormat;

/**
 * The collapsed form of a diff: {@code root;...;leaf BASE TARGET}, one line per merged stack with self weight on
 * either side (the two-column form of flamegraph.pl's difffolded.pl), frame names written as in collapsed stacks.
 */
public final class DiffCollapse {
    private DiffCollapse() {
    }

    public static void write(DiffResult diff, Appendable out) throws IOException {
        DiffResult.Nodes n = diff.nodes();
        int size = n.name().length;
        StringBuilder path = new StringBuilder(256);
        int[] openEnd = new int[64];
        int[] openLength = new int[64];
        int depth = 0;
        for (int i = 1; i < size; i++) {
            while (depth > 0 && openEnd[depth - 1] <= i) {
                depth--;
            }
            path.setLength(depth == 0 ? 0 : openLength[depth - 1]);
            if (depth > 0) {
                path.append(';');
            }
            path.append(CollapsedFormat.escapeFrame(diff.names().get(n.name()[i])));
            if (depth == openEnd.length) {
                openEnd = Arrays.copyOf(openEnd, depth * 2);
                openLength = Arrays.copyOf(openLength, depth * 2);
            }
            openEnd[depth] = i + n.count()[i];
            openLength[depth++] = path.length();
            if (n.baseSelf()[i] != 0 || n.targetSelf()[i] != 0) {
                int length = path.length();
                out.append(path.append(' ').append(n.baseSelf()[i]).append(' ').append(n.targetSelf()[i]).append('\n'));
                path.setLength(length);
            }
        }
    }
}
