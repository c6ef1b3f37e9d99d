package org.jfrworkbench.analysis;

import java.io.IOException;
import java.io.Writer;
import java.util.Locale;

import com.google.re2j.Pattern;

import org.jfrworkbench.importer.CollapsedFormat;
import org.jfrworkbench.model.FrameNaming;
import org.jfrworkbench.model.FrameType;
import org.jfrworkbench.model.Kind;
import org.jfrworkbench.model.SampleTable;
import org.jfrworkbench.model.StackTable;

/**
 * A flame graph of one kind over a time window and thread set, optionally inverted (callers of each leaf) and
 * with a regex search over frame names. {@code scale} multiplies every output weight (live-heap upscaling).
 */
public record FlameGraphQuery(Kind kind, SampleFilter filter, String search, boolean inverted, FrameNaming naming,
                              double scale) {
    static final String[] TYPE_NAMES = typeNames();

    public FlameGraphQuery(Kind kind) {
        this(kind, SampleFilter.ALL, null, false, FrameNaming.DEFAULT, 1.0);
    }

    public FlameGraph run(ProfileData data) {
        SampleTable samples = data.samples(kind);
        StackTable stacks = data.profile().stacks();
        ProfileData.Names names = data.names(naming);
        SampleFilter.StackWeights sw = filter.aggregate(samples, stacks.size());
        boolean[] matches = compileSearch(names.names());
        TreeBuilder tree = new TreeBuilder(names.names(), data.nameRanks(naming), "all", 1, frames(stacks, sw));
        long[] matched = new long[1];
        StackPaths.forEach(data, names, sw, null, inverted, (path, types, depth, w, c) -> {
            if (matches != null) {
                for (int i = 0; i < depth; i++) {
                    if (matches[path[i]]) {
                        matched[0] += w;
                        break;
                    }
                }
            }
            tree.add(0, path, types, depth, w, c);
        });
        return layout(tree, names.names(), sw, matches, matched[0]);
    }

    /** Frames on the selected stacks: the tree's size when no two stacks share a prefix, so an upper bound. */
    static long frames(StackTable stacks, SampleFilter.StackWeights sw) {
        long frames = 1;
        for (int s = 0; s < stacks.size(); s++) {
            if (sw.count()[s] != 0) {
                frames += stacks.depth(s);
            }
        }
        return frames + 1;
    }

    private FlameGraph layout(TreeBuilder tree, String[] dict, SampleFilter.StackWeights sw, boolean[] matches,
                              long matched) {
        TreeBuilder.Layout l = tree.preOrder(0);
        int n = l.order().length;
        NameColumns columns = NameColumns.of(tree, l, dict);
        long[] total = new long[n];
        long[] self = new long[n];
        long[] samples = new long[n];
        int[] hits = new int[16];
        int hitCount = 0;
        for (int i = 0; i < n; i++) {
            int node = l.order()[i];
            int nm = tree.name(node);
            if (matches != null && nm >= 0 && matches[nm]) {
                if (hitCount == hits.length) {
                    hits = java.util.Arrays.copyOf(hits, hitCount * 2);
                }
                hits[hitCount++] = i;
            }
            total[i] = scaled(tree.total(0, node));
            self[i] = scaled(tree.self(0, node));
            samples[i] = tree.samples(0, node);
        }
        FlameGraph.Search found = null;
        if (matches != null) {
            found = new FlameGraph.Search(search, scaled(matched), sw.totalWeight() == 0 ? 0 : (double) matched / sw.totalWeight(),
                    java.util.Arrays.copyOf(hits, hitCount));
        }
        return new FlameGraph(kind.id(), kind.unit(), scaled(sw.totalWeight()), sw.samples(), columns.names(),
                new FlameGraph.Nodes(columns.name(), l.parent(), total, self, columns.type(), l.count(), samples), found);
    }

    private long scaled(long w) {
        return scale == 1.0 ? w : Math.round(w * scale);
    }

    private boolean[] compileSearch(String[] names) {
        if (search == null || search.isEmpty()) {
            return null;
        }
        Pattern p = SearchPattern.compile(search);
        boolean[] m = new boolean[names.length];
        for (int i = 0; i < names.length; i++) {
            m[i] = p.matcher(names[i]).find();
        }
        return m;
    }

    /** Writes the selected samples as collapsed stacks ({@code root;...;leaf weight}), one line per stack. */
    public void writeCollapsed(ProfileData data, Writer out) throws IOException {
        SampleTable samples = data.samples(kind);
        StackTable stacks = data.profile().stacks();
        ProfileData.Names names = data.names(naming);
        SampleFilter.StackWeights sw = filter.aggregate(samples, stacks.size());
        StringBuilder line = new StringBuilder(256);
        for (int s = 0; s <= stacks.size(); s++) {
            if (sw.count()[s] == 0) {
                continue;
            }
            line.setLength(0);
            if (s == stacks.size()) {
                line.append(CollapsedFormat.NO_STACK);
            } else {
                for (int d = stacks.depth(s) - 1; d >= 0; d--) {
                    line.append(CollapsedFormat.escapeFrame(names.names()[names.frameName()[stacks.frame(s, d)]]));
                    if (d > 0) {
                        line.append(';');
                    }
                }
            }
            line.append(' ').append(scaled(sw.weight()[s])).append('\n');
            out.append(line);
        }
    }

    private static String[] typeNames() {
        FrameType[] values = FrameType.values();
        String[] out = new String[values.length];
        for (FrameType t : values) {
            out[t.ordinal()] = t.name().toLowerCase(Locale.ROOT);
        }
        return out;
    }
}
