package org.jfrworkbench.testkit.torture;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Writes a small single-chunk JFR file by hand (JFR 2.0, compressed integers): metadata for jdk.ExecutionSample and
 * the pools it needs (thread, stack trace, frame, method, class, class loader, symbol), one or two checkpoint
 * events and the samples. Each {@link Lie} makes one part of it structurally hostile, with sizes and positions
 * drawn from the given random source, so the importer's guards are hit from the inside and not only at the header.
 */
public final class JfrWriter {
    /** What the file lies about. NONE writes a valid recording with {@link #samples} cpu samples. */
    public enum Lie {
        NONE, HUGE_STRING_LENGTH, HUGE_POOL_COUNT, HUGE_FRAME_COUNT, NEGATIVE_FRAME_COUNT, OVERLONG_VARINT,
        HUGE_METADATA_STRING_COUNT, MISSING_STACK, MISSING_METHOD, MISSING_THREAD, POOL_DELTA_CYCLE,
        POOL_DELTA_OUTSIDE, CLASS_LOADER_CYCLE, SELF_NESTED_TYPE, UNDECLARED_FIELD_TYPE, DUPLICATE_TYPE_ID,
        HUGE_CHUNK_SIZE, METADATA_OFFSET_LIE, EVENT_SIZE_LIE, DEEP_METADATA, HUGE_TIMESTAMPS;

        /**
         * Lies the importer survives and still imports: references to nothing, cycles, absurd clocks, and damage
         * after which the events read so far are kept with a warning (a size or varint that overruns, a type id
         * declared twice).
         */
        public boolean tolerated() {
            return this == MISSING_STACK || this == MISSING_METHOD || this == MISSING_THREAD || this == CLASS_LOADER_CYCLE
                    || this == HUGE_TIMESTAMPS || this == EVENT_SIZE_LIE || this == OVERLONG_VARINT || this == DUPLICATE_TYPE_ID;
        }
    }

    private static final long LONG = 20, INT = 21, BOOLEAN = 22, STRING = 23, SYMBOL = 30, CLASS = 31, METHOD = 32,
            FRAME = 33, STACK = 34, THREAD = 35, FRAME_TYPE = 36, LOADER = 37, SAMPLE = 40, NESTED = 41;

    private final Lie lie;
    private final Random random;
    public final int samples;
    private final int methods;
    private final int stacks;
    private final int threads;

    public JfrWriter(Lie lie, Random random) {
        this.lie = lie;
        this.random = random;
        this.samples = 1 + random.nextInt(40);
        this.methods = 1 + random.nextInt(12);
        this.stacks = 1 + random.nextInt(6);
        this.threads = 1 + random.nextInt(3);
    }

    /** A value that cannot be trusted as a length: from just past the data to far beyond any memory. */
    private long hugeLength() {
        return switch (random.nextInt(4)) {
            case 0 -> Integer.MAX_VALUE;
            case 1 -> 1L << (31 + random.nextInt(30));
            case 2 -> 100_000 + random.nextInt(1 << 24);
            default -> -1L - random.nextInt(1000); // a negative length encoded as a huge unsigned varint
        };
    }

    public byte[] write() {
        byte[] metadata = metadataEvent();
        Out chunk = new Out();
        chunk.raw(new byte[68]);
        int metadataOffset = chunk.size();
        chunk.raw(metadata);
        int poolOffset = chunk.size();
        byte[] pools = pools();
        if (lie == Lie.POOL_DELTA_CYCLE) {
            // two checkpoints whose deltas point at each other; the header names the second
            int first = poolOffset;
            int firstLength = checkpoint(0, pools).length;
            chunk.raw(checkpoint(firstLength, pools));
            poolOffset = chunk.size();
            chunk.raw(checkpoint(first - poolOffset, new byte[] {0}));
        } else {
            chunk.raw(checkpoint(lie == Lie.POOL_DELTA_OUTSIDE ? hugeLength() : 0, pools));
        }
        for (int i = 0; i < samples; i++) {
            chunk.raw(sampleEvent(i));
        }
        byte[] bytes = chunk.bytes();
        ByteBuffer h = ByteBuffer.wrap(bytes);
        h.put(new byte[] {'F', 'L', 'R', 0}).putShort((short) 2).putShort((short) 1);
        h.putLong(lie == Lie.HUGE_CHUNK_SIZE ? bytes.length + hugeLength() : bytes.length);
        h.putLong(poolOffset);
        h.putLong(lie == Lie.METADATA_OFFSET_LIE ? random.nextInt(bytes.length + 100) : metadataOffset);
        long startTicks = lie == Lie.HUGE_TIMESTAMPS ? Long.MAX_VALUE - random.nextInt(10) : 1_000_000;
        h.putLong(1_700_000_000_000_000_000L).putLong(1_000_000_000L).putLong(startTicks);
        h.putLong(lie == Lie.HUGE_TIMESTAMPS ? 1 : 1_000_000_000L).putInt(1);
        return bytes;
    }

    // ---- metadata -------------------------------------------------------------------------------------------

    private record Element(String name, Map<String, String> attributes, List<Element> children) {
        Element(String name, String... keyValues) {
            this(name, new LinkedHashMap<>(), new ArrayList<>());
            for (int i = 0; i < keyValues.length; i += 2) {
                attributes.put(keyValues[i], keyValues[i + 1]);
            }
        }

        Element add(Element child) {
            children.add(child);
            return this;
        }
    }

    private static Element type(long id, String name, String superType) {
        Element e = new Element("class", "id", Long.toString(id), "name", name);
        if (superType != null) {
            e.attributes.put("superType", superType);
        }
        return e;
    }

    private static Element field(String name, long type, boolean pool, boolean array) {
        Element f = new Element("field", "name", name, "class", Long.toString(type));
        if (pool) {
            f.attributes.put("constantPool", "true");
        }
        if (array) {
            f.attributes.put("dimension", "1");
        }
        return f;
    }

    private Element metadataTree() {
        Element md = new Element("metadata");
        md.add(type(LONG, "long", null)).add(type(INT, "int", null)).add(type(BOOLEAN, "boolean", null))
                .add(type(STRING, "java.lang.String", null));
        md.add(type(SYMBOL, "jdk.types.Symbol", null).add(field("string", STRING, false, false)));
        md.add(type(CLASS, "java.lang.Class", null).add(field("classLoader", LOADER, true, false))
                .add(field("name", SYMBOL, true, false)));
        md.add(type(LOADER, "jdk.types.ClassLoader", null).add(field("type", CLASS, true, false))
                .add(field("name", SYMBOL, true, false)));
        md.add(type(METHOD, "jdk.types.Method", null).add(field("type", CLASS, true, false))
                .add(field("name", SYMBOL, true, false)).add(field("descriptor", SYMBOL, true, false)));
        md.add(type(FRAME_TYPE, "jdk.types.FrameType", null).add(field("description", STRING, false, false)));
        md.add(type(FRAME, "jdk.types.StackFrame", null).add(field("method", METHOD, true, false))
                .add(field("lineNumber", INT, false, false)).add(field("bytecodeIndex", INT, false, false))
                .add(field("type", FRAME_TYPE, true, false)));
        md.add(type(STACK, "jdk.types.StackTrace", null).add(field("truncated", BOOLEAN, false, false))
                .add(field("frames", FRAME, false, true)));
        md.add(type(THREAD, "java.lang.Thread", null).add(field("osName", STRING, false, false))
                .add(field("osThreadId", LONG, false, false)).add(field("javaName", STRING, false, false))
                .add(field("javaThreadId", LONG, false, false)));
        Element sample = type(SAMPLE, "jdk.ExecutionSample", "jdk.jfr.Event").add(field("startTime", LONG, false, false))
                .add(field("sampledThread", THREAD, true, false))
                .add(field("stackTrace", lie == Lie.UNDECLARED_FIELD_TYPE ? 999 + random.nextInt(1000) : STACK, true, false));
        md.add(sample);
        if (lie == Lie.SELF_NESTED_TYPE) {
            md.add(type(NESTED, "torture.Nested", null).add(field("next", NESTED, false, false)));
        }
        if (lie == Lie.DUPLICATE_TYPE_ID) {
            md.add(type(new long[] {STACK, THREAD, SAMPLE, LONG}[random.nextInt(4)], "torture.Duplicate", null)
                    .add(field("x", INT, false, false)));
        }
        Element root = new Element("root").add(md).add(new Element("region", "locale", "en_US"));
        if (lie == Lie.DEEP_METADATA) {
            Element deep = new Element("deep");
            Element at = deep;
            for (int i = 0, n = 1000 + random.nextInt(20_000); i < n; i++) {
                Element next = new Element("deep");
                at.add(next);
                at = next;
            }
            root.add(deep);
        }
        return root;
    }

    private byte[] metadataEvent() {
        Element root = metadataTree();
        Map<String, Integer> strings = new LinkedHashMap<>();
        collectStrings(root, strings);
        Out body = new Out();
        body.varint(0).varint(0).varint(0).varint(1);
        body.varint(lie == Lie.HUGE_METADATA_STRING_COUNT ? hugeLength() : strings.size());
        for (String s : strings.keySet()) {
            body.string(s);
        }
        writeElement(root, strings, body);
        return event(body);
    }

    private static void collectStrings(Element e, Map<String, Integer> strings) {
        // iterative: the deep-metadata lie nests tens of thousands of levels
        List<Element> todo = new ArrayList<>(List.of(e));
        while (!todo.isEmpty()) {
            Element x = todo.remove(todo.size() - 1);
            strings.putIfAbsent(x.name, strings.size());
            x.attributes.forEach((k, v) -> {
                strings.putIfAbsent(k, strings.size());
                strings.putIfAbsent(v, strings.size());
            });
            todo.addAll(x.children);
        }
    }

    private static void writeElement(Element root, Map<String, Integer> strings, Out out) {
        List<Element> todo = new ArrayList<>(List.of(root));
        while (!todo.isEmpty()) {
            Element e = todo.remove(todo.size() - 1);
            out.varint(strings.get(e.name)).varint(e.attributes.size());
            e.attributes.forEach((k, v) -> out.varint(strings.get(k)).varint(strings.get(v)));
            out.varint(e.children.size());
            for (int i = e.children.size() - 1; i >= 0; i--) {
                todo.add(e.children.get(i)); // pre-order, children in order
            }
        }
    }

    // ---- constant pools and events --------------------------------------------------------------------------

    private String name(String prefix, int i) {
        String[] odd = {"", "\u00e9t\u00e9", "\u6f22\u5b57", "<b>x</b>", "$lambda$0", "\u0000nul"};
        return prefix + i + odd[random.nextInt(odd.length)];
    }

    /** A checkpoint event; a small non-negative delta is written padded so its length does not depend on it. */
    private static byte[] checkpoint(long delta, byte[] pools) {
        Out body = new Out();
        body.varint(1).varint(0).varint(0);
        if (delta >= 0 && delta < 1 << 28) {
            body.padded((int) delta);
        } else {
            body.varint(delta);
        }
        body.u1(1).raw(pools);
        return event(body);
    }

    /** The pool count and the pools: symbols, class loader, classes, methods, frame types, threads, stacks. */
    private byte[] pools() {
        Out p = new Out();
        p.varint(8 + (lie == Lie.SELF_NESTED_TYPE ? 1 : 0));
        p.varint(SYMBOL).varint(methods * 2 + 2L);
        for (int i = 1; i <= methods * 2 + 2; i++) {
            p.varint(i);
            if (lie == Lie.HUGE_STRING_LENGTH && i == 1) {
                p.u1(3).varint(hugeLength());
            } else {
                p.string(name(i % 2 == 0 ? "com.torture.C" : "m", i));
            }
        }
        p.varint(LOADER).varint(1).varint(1).varint(1).varint(2);
        p.varint(CLASS).varint(methods);
        for (int i = 1; i <= methods; i++) {
            p.varint(i).varint(lie == Lie.CLASS_LOADER_CYCLE ? 1 : 0).varint(2L * i);
        }
        p.varint(METHOD).varint(methods);
        for (int i = 1; i <= methods; i++) {
            p.varint(i).varint(i).varint(2L * i + 1).varint(2);
        }
        p.varint(FRAME_TYPE).varint(2).varint(1).string("Interpreted").varint(2).string("JIT compiled");
        p.varint(THREAD).varint(threads);
        for (int i = 1; i <= threads; i++) {
            p.varint(i).string("os-" + i).varint(100 + i).string(name("worker-", i)).varint(i);
        }
        p.varint(STACK).varint(lie == Lie.HUGE_POOL_COUNT ? hugeLength() : stacks);
        for (int s = 1; s <= stacks; s++) {
            int depth = 1 + random.nextInt(20);
            p.varint(s).u1(0);
            if (lie == Lie.HUGE_FRAME_COUNT && s == 1) {
                p.varint(hugeLength());
            } else if (lie == Lie.NEGATIVE_FRAME_COUNT && s == 1) {
                p.varint(-1L - random.nextInt(100));
            } else {
                p.varint(depth);
            }
            for (int f = 0; f < depth; f++) {
                long method = lie == Lie.MISSING_METHOD && f == 0 ? 10_000 + random.nextInt(1000) : 1 + random.nextInt(methods);
                p.varint(method).varint(random.nextInt(500)).varint(random.nextInt(100)).varint(1 + random.nextInt(2));
            }
        }
        p.varint(STRING).varint(0);
        if (lie == Lie.SELF_NESTED_TYPE) {
            p.varint(NESTED).varint(1).varint(1);
        }
        return p.bytes();
    }

    private byte[] sampleEvent(int i) {
        Out body = new Out();
        body.varint(SAMPLE);
        if (lie == Lie.OVERLONG_VARINT && i == 0) {
            for (int k = 0, n = 10 + random.nextInt(30); k < n; k++) {
                body.u1(0xff);
            }
            body.u1(0x01);
        } else {
            body.varint(1_000_000 + i * 1000L);
        }
        long thread = lie == Lie.MISSING_THREAD ? 500 + random.nextInt(100) : 1 + random.nextInt(threads);
        long stack = lie == Lie.MISSING_STACK ? 500 + random.nextInt(100) : 1 + random.nextInt(stacks);
        body.varint(thread).varint(stack);
        if (lie == Lie.EVENT_SIZE_LIE && i == samples / 2) {
            Out out = new Out();
            out.padded(random.nextBoolean() ? 1 + random.nextInt(3) : (int) Math.min(hugeLength() & 0x0fffffff, 0x0fffffff));
            out.raw(body.bytes());
            return out.bytes();
        }
        return event(body);
    }

    /** Prefixes a body with its total size as a 4-byte padded varint, as the JDK writes it. */
    private static byte[] event(Out body) {
        byte[] b = body.bytes();
        Out out = new Out();
        out.padded(b.length + 4);
        out.raw(b);
        return out.bytes();
    }

    /** A byte sink with JFR's encodings. */
    private static final class Out {
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        Out varint(long v) {
            for (int i = 0; i < 8; i++) {
                if ((v & ~0x7fL) == 0) {
                    bytes.write((int) v);
                    return this;
                }
                bytes.write((int) (v & 0x7f) | 0x80);
                v >>>= 7;
            }
            bytes.write((int) v); // the 9th byte carries 8 bits
            return this;
        }

        Out padded(int v) {
            bytes.write((v & 0x7f) | 0x80);
            bytes.write(((v >>> 7) & 0x7f) | 0x80);
            bytes.write(((v >>> 14) & 0x7f) | 0x80);
            bytes.write((v >>> 21) & 0x7f);
            return this;
        }

        Out u1(int b) {
            bytes.write(b);
            return this;
        }

        Out string(String s) {
            byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
            u1(3).varint(utf8.length);
            bytes.writeBytes(utf8);
            return this;
        }

        Out raw(byte[] b) {
            bytes.writeBytes(b);
            return this;
        }

        int size() {
            return bytes.size();
        }

        byte[] bytes() {
            return bytes.toByteArray();
        }
    }
}
