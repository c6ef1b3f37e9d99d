package org.jfrworkbench.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import org.jfrworkbench.testkit.jfr.JfrWriter;
import org.jfrworkbench.testkit.jfr.JfrWriter.Field;

/**
 * A seeded JFR recording shaped like a large service, for benchmarks that must not flatter the design: thousands of
 * classes, stacks 20 to 120 frames deep, a chosen number of distinct stacks (each new one branches off an earlier
 * one a few frames above its leaf, so they share callers as real ones do), samples skewed to hot stacks and spread
 * over threads and a minute, plus allocation samples that end in their allocated classes. The layout of events and
 * pools is the JDK's, so async-profiler's converter reads it too. {@code variant} changes the samples (not the
 * code): another run of the same service, with one code path grown. {@link Shape#WIDE} makes the opposite shape for
 * inputs the server was not tuned on: 1,024 threads and stacks 4 to 16 frames deep.
 */
final class DeepStacksRecording {
    static final long DURATION_NANOS = 60_000_000_000L;
    private static final int CLASSES = 4000;
    private static final int METHODS_PER_CLASS = 3;
    private static final int ALLOCATED_CLASSES = 40;
    private static final String[] LAYERS = {"web", "service", "domain", "repository", "codec", "cache", "rules", "client"};
    private static final String[] NOUNS = {"Order", "Cart", "Price", "Stock", "User", "Session", "Invoice", "Route",
        "Token", "Query", "Schema", "Event", "Batch", "Report", "Ledger", "Search"};
    private static final String[] VERBS = {"handle", "apply", "load", "resolve", "compute", "encode", "visit", "merge"};
    private static final String[] JDK_LEAVES = {"java.util.HashMap.resize", "java.util.HashMap.putVal",
        "java.lang.String.indexOf", "java.lang.StringLatin1.hashCode", "java.util.Arrays.copyOf",
        "java.util.ArrayList.grow", "java.lang.Object.hashCode", "jdk.internal.misc.Unsafe.park"};

    private DeepStacksRecording() {
    }

    /** How deep the stacks are and over how many threads the samples spread. */
    record Shape(String name, int minDepth, int maxDepth, int threads) {
        static final Shape DEEP = new Shape("deep", 20, 120, 32);
        static final Shape WIDE = new Shape("wide", 4, 16, 1024);
    }

    /** The input's figures, for the benchmark's report. */
    record Made(Path file, int stacks, int samples, int allocations, double meanDepth, long bytes) {
    }

    static Made write(Path file, int distinctStacks, int samples, int variant) throws IOException {
        return write(file, distinctStacks, samples, variant, Shape.DEEP);
    }

    static Made write(Path file, int distinctStacks, int samples, int variant, Shape shape) throws IOException {
        Random code = new Random(20261127L);
        int[][] stacks = stacks(code, distinctStacks, shape);
        JfrWriter w = types(new JfrWriter(JfrWriter.START_NANOS, DURATION_NANOS));
        constants(w, stacks, shape.threads());
        Random run = new Random(1000L + variant);
        int allocations = samples / 10;
        int[] threadOf = new int[stacks.length];
        for (int s = 0; s < stacks.length; s++) {
            threadOf[s] = code.nextInt(shape.threads());
        }
        // another run: the second variant spends 5 % more of its samples under one subtree
        int grown = variant == 0 ? -1 : stacks.length / 3;
        for (int i = 0; i < samples; i++) {
            long time = (long) ((i + run.nextDouble()) * DURATION_NANOS / samples);
            int s = hot(run, stacks.length);
            if (grown >= 0 && run.nextDouble() < 0.05) {
                s = grown + run.nextInt(16);
            }
            int thread = run.nextDouble() < 0.8 ? threadOf[s] : run.nextInt(shape.threads());
            w.event("jdk.ExecutionSample", time, 1L + thread, 1L + s, 1L);
            if (i % 10 == 0) {
                int a = hot(run, stacks.length);
                w.event("jdk.ObjectAllocationSample", time, 1L + threadOf[a], 1L + a,
                        allocatedClass(run.nextInt(ALLOCATED_CLASSES)), 512L + run.nextInt(1 << 16));
            }
        }
        Files.write(file, w.chunk());
        long frames = 0;
        for (int[] s : stacks) {
            frames += s.length;
        }
        return new Made(file, stacks.length, samples, allocations, (double) frames / stacks.length, Files.size(file));
    }

    /** The class id of the a-th allocated class: after the code's classes, the JDK's, Thread and the worker. */
    private static long allocatedClass(int a) {
        return 1L + CLASSES + JDK_LEAVES.length + 2 + a;
    }

    /** A stack index skewed towards a hot set, as profiles are (about a fifth of the stacks take most samples). */
    private static int hot(Random r, int stacks) {
        return (int) Math.min(stacks - 1, stacks * Math.pow(r.nextDouble(), 3));
    }

    /** Distinct stacks as method ids, root first. */
    private static int[][] stacks(Random r, int count, Shape shape) {
        List<int[]> out = new ArrayList<>(count);
        Set<Key> seen = new HashSet<>(count * 2);
        int methods = CLASSES * METHODS_PER_CLASS;
        for (int k = 0; out.size() < count; k++) {
            int[] s;
            if (out.size() < 64) {
                s = extend(r, new int[] {methods + JDK_LEAVES.length, methods + JDK_LEAVES.length + 1 + r.nextInt(4)},
                        shape.minDepth() + r.nextInt(shape.maxDepth() - shape.minDepth() + 1));
            } else {
                // branch off a recent stack most of the time (families of similar stacks), else any
                int[] parent = out.get(r.nextDouble() < 0.7 ? out.size() - 1 - r.nextInt(Math.min(out.size(), 2000))
                        : r.nextInt(out.size()));
                int cut = Math.max(3, parent.length - 1 - geometric(r, 3));
                int depth = r.nextDouble() < 0.1 ? cut + 1 + r.nextInt(20) : cut + 1 + geometric(r, 2);
                depth = Math.max(shape.minDepth(), Math.min(shape.maxDepth(), depth));
                s = extend(r, Arrays.copyOf(parent, Math.min(cut, depth - 1)), depth);
            }
            if (r.nextDouble() < 0.3) {
                s[s.length - 1] = methods + r.nextInt(JDK_LEAVES.length);
            }
            if (seen.add(new Key(s))) {
                out.add(s);
            }
        }
        return out.toArray(int[][]::new);
    }

    /** Extends a prefix to depth frames, each call to a method of a nearby class (layers call their neighbours). */
    private static int[] extend(Random r, int[] prefix, int depth) {
        int[] s = Arrays.copyOf(prefix, depth);
        int cls = prefix.length > 2 && prefix[prefix.length - 1] < CLASSES * METHODS_PER_CLASS
                ? prefix[prefix.length - 1] / METHODS_PER_CLASS : r.nextInt(CLASSES);
        for (int d = prefix.length; d < depth; d++) {
            cls = Math.floorMod(cls + r.nextInt(41) - 20, CLASSES);
            s[d] = cls * METHODS_PER_CLASS + r.nextInt(METHODS_PER_CLASS);
        }
        return s;
    }

    private static int geometric(Random r, double mean) {
        return (int) Math.floor(Math.log(1 - r.nextDouble()) / Math.log(1 - 1 / (mean + 1)));
    }

    private record Key(int[] frames) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && Arrays.equals(frames, k.frames);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(frames);
        }
    }

    private static JfrWriter types(JfrWriter w) {
        w.type("jdk.types.Symbol", null, Field.of("string", "java.lang.String"));
        w.type("jdk.types.Package", null, Field.pool("name", "jdk.types.Symbol"));
        w.type("java.lang.Class", null, Field.of("classLoader", "long"), Field.pool("name", "jdk.types.Symbol"),
                Field.pool("package", "jdk.types.Package"), Field.of("modifiers", "int"));
        w.type("jdk.types.Method", null, Field.pool("type", "java.lang.Class"), Field.pool("name", "jdk.types.Symbol"),
                Field.pool("descriptor", "jdk.types.Symbol"), Field.of("modifiers", "int"), Field.of("hidden", "boolean"));
        w.type("jdk.types.FrameType", null, Field.of("description", "java.lang.String"));
        w.type("jdk.types.StackFrame", null, Field.pool("method", "jdk.types.Method"), Field.of("lineNumber", "int"),
                Field.of("bytecodeIndex", "int"), Field.pool("type", "jdk.types.FrameType"));
        w.type("jdk.types.StackTrace", null, Field.of("truncated", "boolean"), Field.array("frames", "jdk.types.StackFrame"));
        w.type("java.lang.Thread", null, Field.of("osName", "java.lang.String"), Field.of("osThreadId", "long"),
                Field.of("javaName", "java.lang.String"), Field.of("javaThreadId", "long"));
        w.type("jdk.types.ThreadState", null, Field.of("name", "java.lang.String"));
        w.type("jdk.ExecutionSample", "jdk.jfr.Event", Field.timestamp("startTime", "long", "TICKS"),
                Field.pool("sampledThread", "java.lang.Thread"), Field.pool("stackTrace", "jdk.types.StackTrace"),
                Field.pool("state", "jdk.types.ThreadState"));
        w.type("jdk.ObjectAllocationSample", "jdk.jfr.Event", Field.timestamp("startTime", "long", "TICKS"),
                Field.pool("eventThread", "java.lang.Thread"), Field.pool("stackTrace", "jdk.types.StackTrace"),
                Field.pool("objectClass", "java.lang.Class"), Field.of("weight", "long"));
        return w.simpleType("jdk.types.FrameType").simpleType("jdk.types.ThreadState");
    }

    /** Symbols, packages, classes, methods, frame types, threads, states and every stack trace. */
    private static void constants(JfrWriter w, int[][] stacks, int threads) {
        int methods = CLASSES * METHODS_PER_CLASS;
        long symbol = 1;
        w.constant("jdk.types.Symbol", symbol++, "()V");
        List<String> classNames = new ArrayList<>();
        for (int c = 0; c < CLASSES; c++) {
            classNames.add("com/acme/m" + (c % 97) + "/" + LAYERS[c % LAYERS.length] + "/" + NOUNS[(c / 7) % NOUNS.length]
                    + LAYERS[(c / 3) % LAYERS.length].substring(0, 1).toUpperCase() + LAYERS[(c / 3) % LAYERS.length].substring(1) + c);
        }
        for (String leaf : JDK_LEAVES) {
            classNames.add(leaf.substring(0, leaf.lastIndexOf('.')).replace('.', '/'));
        }
        classNames.add("java/lang/Thread");
        classNames.add("java/util/concurrent/ThreadPoolExecutor$Worker");
        for (int a = 0; a < ALLOCATED_CLASSES; a++) {
            classNames.add(a % 4 == 0 ? "[B" : "com/acme/model/" + NOUNS[a % NOUNS.length] + "Record" + a);
        }
        long[] classSymbol = new long[classNames.size()];
        for (int c = 0; c < classNames.size(); c++) {
            classSymbol[c] = symbol;
            w.constant("jdk.types.Symbol", symbol++, classNames.get(c));
        }
        w.constant("jdk.types.Symbol", symbol, "acme");
        w.constant("jdk.types.Package", 1, symbol++);
        // classes 1..: the generated ones, the JDK leaves' classes, Thread, the executor's worker, allocated classes
        int c = 0;
        for (; c < CLASSES + JDK_LEAVES.length + 2; c++) {
            w.constant("java.lang.Class", 1 + c, 0L, classSymbol[c], 1L, 1);
        }
        for (int a = 0; a < ALLOCATED_CLASSES; a++, c++) {
            w.constant("java.lang.Class", 1 + c, 0L, classSymbol[c], 1L, 1);
        }
        long[] verbSymbol = new long[VERBS.length * 4];
        for (int v = 0; v < verbSymbol.length; v++) {
            verbSymbol[v] = symbol;
            w.constant("jdk.types.Symbol", symbol++, VERBS[v % VERBS.length] + (v / VERBS.length == 0 ? "" : v / VERBS.length));
        }
        for (int m = 0; m < methods; m++) {
            w.constant("jdk.types.Method", 1 + m, 1L + m / METHODS_PER_CLASS, verbSymbol[m % verbSymbol.length], 1L, 1, false);
        }
        for (int j = 0; j < JDK_LEAVES.length; j++) {
            w.constant("jdk.types.Symbol", symbol, JDK_LEAVES[j].substring(JDK_LEAVES[j].lastIndexOf('.') + 1));
            w.constant("jdk.types.Method", 1 + methods + j, 1L + CLASSES + j, symbol++, 1L, 1, false);
        }
        w.constant("jdk.types.Symbol", symbol, "run");
        // root frames: Thread.run, then one of the worker's run methods
        w.constant("jdk.types.Method", 1 + methods + JDK_LEAVES.length, 1L + CLASSES + JDK_LEAVES.length, symbol, 1L, 1, false);
        for (int k = 1; k <= 4; k++) {
            w.constant("jdk.types.Method", 1 + methods + JDK_LEAVES.length + k, 2L + CLASSES + JDK_LEAVES.length,
                    k == 1 ? symbol : verbSymbol[k], 1L, 1, false);
        }
        w.constant("jdk.types.FrameType", 1, "Interpreted").constant("jdk.types.FrameType", 2, "JIT compiled")
                .constant("jdk.types.FrameType", 3, "Inlined");
        for (int t = 0; t < threads; t++) {
            w.constant("java.lang.Thread", 1 + t, "worker-" + t, 100L + t, "worker-" + t, 1000L + t);
        }
        w.constant("jdk.types.ThreadState", 1, "STATE_RUNNABLE");
        List<Object[]> frames = new ArrayList<>(128);
        for (int s = 0; s < stacks.length; s++) {
            frames.clear();
            int[] stack = stacks[s];
            for (int d = stack.length - 1; d >= 0; d--) {
                int m = stack[d];
                long type = d == stack.length - 1 || m % 5 != 0 ? 2L : m % 10 == 0 ? 3L : 1L;
                frames.add(new Object[] {1L + m, 10 + m % 300, m % 50, type});
            }
            w.constant("jdk.types.StackTrace", 1 + s, false, List.copyOf(frames));
        }
    }
}
