package org.jfrworkbench.importer.jfr;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import org.jfrworkbench.testkit.jfr.JfrWriter;
import org.jfrworkbench.testkit.jfr.JfrWriter.Field;

/**
 * Chunks shaped like async-profiler's (every chunk a key space of its own, symbols numbered afresh in each, method,
 * class and stack keys kept), whose keys now and then change meaning from one chunk to the next: a method key gets
 * another class, name or descriptor, a class key another name (also one that only differs by '/' or '.', the same
 * class to the model), a stack key other frames. What the importer carries from chunk to chunk (frames, stacks, the
 * confirmation of method keys) must give the model it gives without carrying anything.
 */
final class RedefinedKeysRecording {
    static final int METHODS = 14;
    static final int CLASSES = 5;
    static final int STACKS = 24;
    private static final String[] NAMES = {"run", "call", "get", "apply", "unknown", ""};
    private static final String[] DESCRIPTORS = {"()V", "(I)V", "(J)J", "(Ljava/lang/String;)I", ""};
    private static final String[] FRAME_TYPES = {"Interpreted", "JIT compiled", "Inlined"};

    private final Random random;
    private final boolean jdkReadable;
    private final int[] methodClass = new int[METHODS + 1];
    private final String[] methodName = new String[METHODS + 1];
    private final String[] methodDescriptor = new String[METHODS + 1];
    private final String[] className = new String[CLASSES + 1];
    private final List<List<long[]>> stackFrames = new ArrayList<>();

    /**
     * jdkReadable: no empty names or descriptors, which the JDK's parser shows as they are and the importer as
     * "unknown" and none.
     */
    RedefinedKeysRecording(long seed, boolean jdkReadable) {
        this.random = new Random(seed);
        this.jdkReadable = jdkReadable;
        for (int c = 1; c <= CLASSES; c++) {
            className[c] = "app/C" + c;
        }
        for (int m = 1; m <= METHODS; m++) {
            methodClass[m] = 1 + random.nextInt(CLASSES);
            methodName[m] = name();
            methodDescriptor[m] = descriptor();
        }
        stackFrames.add(null);
        for (int s = 1; s <= STACKS; s++) {
            stackFrames.add(frames());
        }
    }

    /** The chunks, each with its own metadata. */
    List<byte[]> chunks(int count) {
        List<byte[]> chunks = new ArrayList<>();
        for (int c = 0; c < count; c++) {
            if (c > 0) {
                redefine();
            }
            chunks.add(chunk(c));
        }
        return chunks;
    }

    private void redefine() {
        for (int m = 1; m <= METHODS; m++) {
            if (random.nextInt(4) == 0) {
                switch (random.nextInt(3)) {
                    case 0 -> methodClass[m] = 1 + random.nextInt(CLASSES);
                    case 1 -> methodName[m] = name();
                    default -> methodDescriptor[m] = descriptor();
                }
            }
        }
        for (int c = 1; c <= CLASSES; c++) {
            switch (random.nextInt(6)) {
                case 0 -> className[c] = "app/C" + random.nextInt(2 * CLASSES);
                // the same dotted name: the same model class
                case 1 -> className[c] = className[c].indexOf('/') >= 0 ? className[c].replace('/', '.')
                        : className[c].replace('.', '/');
                default -> { }
            }
        }
        for (int s = 1; s <= STACKS; s++) {
            if (random.nextInt(3) == 0) {
                stackFrames.set(s, frames());
            }
        }
    }

    private byte[] chunk(int c) {
        JfrWriter w = new JfrWriter(JfrWriter.START_NANOS + c * 1_000_000_000L, 1_000_000_000L);
        // a type of its own per chunk: the metadata differs, so every chunk starts its pools afresh
        w.type("acme.Chunk" + c, null, Field.of("n", "int"));
        w.type("jdk.types.Symbol", null, Field.of("string", "java.lang.String"));
        w.type("jdk.types.FrameType", null, Field.of("description", "java.lang.String"));
        w.type("java.lang.Class", null, Field.pool("name", "jdk.types.Symbol"), Field.of("modifiers", "int"));
        w.type("jdk.types.Method", null, Field.pool("type", "java.lang.Class"), Field.pool("name", "jdk.types.Symbol"),
                Field.pool("descriptor", "jdk.types.Symbol"), Field.of("modifiers", "int"), Field.of("hidden", "boolean"));
        w.type("jdk.types.StackFrame", null, Field.pool("method", "jdk.types.Method"), Field.of("lineNumber", "int"),
                Field.of("bytecodeIndex", "int"), Field.pool("type", "jdk.types.FrameType"));
        w.type("jdk.types.StackTrace", null, Field.of("truncated", "boolean"), Field.array("frames", "jdk.types.StackFrame"));
        w.type("java.lang.Thread", null, Field.of("javaName", "java.lang.String"), Field.of("javaThreadId", "long"));
        w.type("jdk.ExecutionSample", "jdk.jfr.Event", Field.timestamp("startTime", "long", "TICKS"),
                Field.pool("sampledThread", "java.lang.Thread"), Field.pool("stackTrace", "jdk.types.StackTrace"));
        // one-value types as the JDK marks them, so that its parser reads a symbol as its string
        w.simpleType("jdk.types.Symbol").simpleType("jdk.types.FrameType");
        for (int t = 0; t < FRAME_TYPES.length; t++) {
            w.constant("jdk.types.FrameType", t + 1, FRAME_TYPES[t]);
        }
        // every string of the chunk under a key of its own, shuffled: the symbols are numbered afresh in every chunk
        List<String> strings = new ArrayList<>();
        for (int k = 1; k <= CLASSES; k++) {
            strings.add(className[k]);
        }
        for (int m = 1; m <= METHODS; m++) {
            strings.add(methodName[m]);
            strings.add(methodDescriptor[m]);
        }
        List<Long> keys = new ArrayList<>();
        for (int i = 0; i < strings.size(); i++) {
            keys.add(1L + i + 100L * c);
        }
        Collections.shuffle(keys, random);
        for (int i = 0; i < strings.size(); i++) {
            w.constant("jdk.types.Symbol", keys.get(i), strings.get(i));
        }
        for (int k = 1; k <= CLASSES; k++) {
            w.constant("java.lang.Class", k, keys.get(k - 1), 1);
        }
        for (int m = 1; m <= METHODS; m++) {
            int at = CLASSES + 2 * (m - 1);
            w.constant("jdk.types.Method", m, (long) methodClass[m], keys.get(at), keys.get(at + 1), 1, false);
        }
        for (int s = 1; s <= STACKS; s++) {
            List<Object[]> frames = new ArrayList<>();
            for (long[] f : stackFrames.get(s)) {
                frames.add(new Object[] {f[0], (int) f[1], 0, f[2]});
            }
            w.constant("jdk.types.StackTrace", s, false, frames);
        }
        w.constant("java.lang.Thread", 1, "worker", 1L);
        for (int s = 1; s <= STACKS; s++) {
            for (int n = random.nextInt(3); n >= 0; n--) {
                w.event("jdk.ExecutionSample", 1_000L + s, 1L, (long) s);
            }
        }
        return w.chunk();
    }

    /** One to six frames: method key, line, frame-type key. */
    private List<long[]> frames() {
        List<long[]> frames = new ArrayList<>();
        for (int n = 1 + random.nextInt(6); n > 0; n--) {
            frames.add(new long[] {1 + random.nextInt(METHODS), 1 + random.nextInt(3), 1 + random.nextInt(FRAME_TYPES.length)});
        }
        return frames;
    }

    private String name() {
        return NAMES[random.nextInt(jdkReadable ? NAMES.length - 1 : NAMES.length)];
    }

    private String descriptor() {
        return DESCRIPTORS[random.nextInt(jdkReadable ? DESCRIPTORS.length - 1 : DESCRIPTORS.length)];
    }
}
