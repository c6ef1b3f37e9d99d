package org.jfrworkbench.analysis;

import java.io.IOException;
import java.io.StringWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

import org.jfrworkbench.model.FrameType;
import org.jfrworkbench.model.Kind;
import org.jfrworkbench.model.Profile;
import org.jfrworkbench.model.ThreadTable;

/**
 * Small profiles written by hand: samples given as collapsed stacks ({@code a.A.x;b.B.y}, root first; a frame JIT
 * compiled unless it ends in async-profiler's {@code _[i]}, {@code _[0]} or {@code _[1]}), with a time
 * in milliseconds from the start, a thread and a weight; and the reference answers the tests compare with,
 * computed from the samples directly (not through the call tree).
 */
final class HandMade {
    static final long START = 1_700_000_000_000_000_000L;
    private final Profile p = new Profile();
    private final Map<String, Integer> threads = new LinkedHashMap<>();
    /** Each sample as added: kind, time ms, thread, weight, stack text, class. */
    private final java.util.List<Object[]> samples = new java.util.ArrayList<>();

    HandMade() {
        this(10_000);
    }

    /** A recording of durationMillis. */
    HandMade(long durationMillis) {
        p.addChunk(START, durationMillis * 1_000_000);
    }

    HandMade sample(Kind kind, long millis, String thread, long weight, String stack) {
        return sample(kind, millis, thread, weight, stack, null);
    }

    /** objectClass: the allocated class (alloc and live samples), or null. */
    HandMade sample(Kind kind, long millis, String thread, long weight, String stack, String objectClass) {
        return sample(kind, millis, thread, weight, stack, objectClass, null);
    }

    /** state: the thread state as recorded (STATE_RUNNABLE, ...), or null for none. */
    HandMade sample(Kind kind, long millis, String thread, long weight, String stack, String objectClass, String state) {
        int t = threads.computeIfAbsent(thread, n -> p.threads().add(new ThreadTable.ThreadInfo(n, threads.size() + 1, -1)));
        int s = -1;
        if (!stack.isEmpty()) {
            String[] names = stack.split(";");
            int[] frames = new int[names.length];
            for (int i = 0; i < names.length; i++) {
                String name = names[names.length - 1 - i];
                FrameType type = FrameType.JIT;
                if (name.endsWith("]") && name.length() > 4 && name.startsWith("_[", name.length() - 4)) {
                    // async-profiler's suffixes: inlined, interpreted, C1
                    type = switch (name.charAt(name.length() - 2)) {
                        case 'i' -> FrameType.INLINED;
                        case '0' -> FrameType.INTERPRETED;
                        case '1' -> FrameType.C1;
                        default -> FrameType.JIT;
                    };
                    name = name.substring(0, name.length() - 4);
                }
                int dot = name.lastIndexOf('.');
                int method = p.methods().add(p.strings().intern(name.substring(0, dot)),
                        p.strings().intern(name.substring(dot + 1)), p.strings().intern("()V"));
                frames[i] = p.frames().add(method, 0, type);
            }
            s = p.stacks().add(frames);
        }
        int cls = objectClass == null ? 0 : p.strings().intern(objectClass);
        org.jfrworkbench.model.SampleTable table = p.samples(kind);
        table.add(START + millis * 1_000_000, t, s, weight, cls, state == null ? 0 : table.stateNames().intern(state), 0);
        samples.add(new Object[] {kind, millis, thread, weight, stack.isEmpty() ? ProfileData.NO_STACK : stack, objectClass});
        return this;
    }

    int thread(String name) {
        return threads.get(name);
    }

    ProfileData data() {
        return new ProfileData("hand-made", p);
    }

    /** The collapsed stacks of a kind in [from, to) ms, summed per stack text, straight from the samples. */
    Map<String, Long> collapsed(Kind kind, long from, long to, boolean classLeaves) {
        Map<String, Long> out = new TreeMap<>();
        for (Object[] s : samples) {
            long t = (Long) s[1];
            if (s[0] == kind && t >= from && t < to) {
                String stack = (String) s[4];
                if (classLeaves && s[5] != null) {
                    stack += ";" + s[5];
                }
                out.merge(stack, (Long) s[3], Long::sum);
            }
        }
        return out;
    }

    /** What Collapse writes for a selection, parsed back into stack text and weight. */
    static Map<String, Long> collapse(ProfileData data, Selection selection) throws IOException {
        StringWriter w = new StringWriter();
        Collapse.write(data, selection, org.jfrworkbench.model.FrameNaming.DEFAULT, w);
        Map<String, Long> out = new TreeMap<>();
        for (String line : w.toString().split("\n")) {
            if (!line.isEmpty()) {
                int space = line.lastIndexOf(' ');
                out.merge(line.substring(0, space), Long.parseLong(line.substring(space + 1)), Long::sum);
            }
        }
        return out;
    }

    /** Name of node i of a flame graph. */
    static String name(FlameGraph g, int i) {
        return g.names().get(g.nodes().name()[i]);
    }

    /** The path of node i, root excluded, joined by ';'. */
    static String path(FlameGraph g, int i) {
        StringBuilder sb = new StringBuilder();
        for (int n = i; n > 0; n = g.nodes().parent()[n]) {
            sb.insert(0, sb.length() == 0 ? name(g, n) : name(g, n) + ";");
        }
        return sb.toString();
    }
}
