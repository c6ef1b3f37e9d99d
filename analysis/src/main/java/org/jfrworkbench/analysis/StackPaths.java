package org.jfrworkbench.analysis;

import org.jfrworkbench.model.FrameType;
import org.jfrworkbench.model.StackTable;

/**
 * Walks the distinct stacks that have samples as paths of name ids and frame types, root first (leaf first when
 * inverted); samples without a stack become the one-frame path {@code names.noStack()}.
 */
final class StackPaths {
    /** Receives one path; path and types are reused between calls. */
    interface Visitor {
        void path(int[] path, byte[] types, int depth, long weight, long count);
    }

    private StackPaths() {
    }

    /** nameMap translates the profile's name ids (e.g. into a dictionary shared by two profiles); null = as they are. */
    static void forEach(ProfileData data, ProfileData.Names names, SampleFilter.StackWeights sw, int[] nameMap,
                        boolean inverted, Visitor visitor) {
        StackTable stacks = data.profile().stacks();
        int[] path = new int[64];
        byte[] types = new byte[64];
        for (int s = 0; s <= stacks.size(); s++) {
            if ((s & 4095) == 4095) {
                QueryLimits.check(); // a client that hung up stops its view's build here
            }
            long c = sw.count()[s];
            if (c == 0) {
                continue;
            }
            int depth;
            if (s == stacks.size()) {
                depth = 1;
                path[0] = map(nameMap, names.noStack());
                types[0] = (byte) FrameType.UNKNOWN.ordinal();
            } else {
                depth = stacks.depth(s);
                if (path.length < depth) {
                    path = new int[depth * 2];
                    types = new byte[depth * 2];
                }
                for (int i = 0; i < depth; i++) {
                    int frame = stacks.frame(s, inverted ? i : depth - 1 - i);
                    path[i] = map(nameMap, names.frameName()[frame]);
                    types[i] = (byte) data.profile().frames().type(frame).ordinal();
                }
            }
            visitor.path(path, types, depth, sw.weight()[s], c);
        }
    }

    private static int map(int[] nameMap, int name) {
        return nameMap == null ? name : nameMap[name];
    }
}
