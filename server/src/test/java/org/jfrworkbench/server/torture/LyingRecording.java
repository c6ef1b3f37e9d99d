package org.jfrworkbench.server.torture;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.jfrworkbench.testkit.jfr.JfrWriter;
import org.jfrworkbench.testkit.jfr.JfrWriter.Field;

/**
 * A small single-chunk recording of jdk.ExecutionSample with the pools it needs (thread, stack trace, frame, method,
 * class, class loader, symbol), written with the test kit's {@link JfrWriter}. Each {@link Lie} makes one part of it
 * structurally hostile, with sizes and positions drawn from the given random source, so the importer's guards are hit
 * from the inside and not only at the header.
 */
final class LyingRecording {
    /** What the file lies about. NONE writes a valid recording with {@link #samples} cpu samples. */
    enum Lie {
        NONE, HUGE_STRING_LENGTH, HUGE_POOL_COUNT, HUGE_FRAME_COUNT, NEGATIVE_FRAME_COUNT, OVERLONG_VARINT,
        HUGE_METADATA_STRING_COUNT, MISSING_STACK, MISSING_METHOD, MISSING_THREAD, POOL_DELTA_CYCLE,
        POOL_DELTA_OUTSIDE, CLASS_LOADER_CYCLE, SELF_NESTED_TYPE, UNDECLARED_FIELD_TYPE, DUPLICATE_TYPE_ID,
        HUGE_CHUNK_SIZE, METADATA_OFFSET_LIE, EVENT_SIZE_LIE, DEEP_METADATA, HUGE_TIMESTAMPS;

        /**
         * Lies the importer survives and still imports: references to nothing, cycles, absurd clocks, and damage
         * after which the events read so far are kept with a warning (a size or varint that overruns, a type id
         * declared twice).
         */
        boolean tolerated() {
            return this == MISSING_STACK || this == MISSING_METHOD || this == MISSING_THREAD || this == CLASS_LOADER_CYCLE
                    || this == HUGE_TIMESTAMPS || this == EVENT_SIZE_LIE || this == OVERLONG_VARINT || this == DUPLICATE_TYPE_ID;
        }
    }

    private static final String SYMBOL = "jdk.types.Symbol";
    private static final String CLASS = "java.lang.Class";
    private static final String LOADER = "jdk.types.ClassLoader";
    private static final String METHOD = "jdk.types.Method";
    private static final String FRAME_TYPE = "jdk.types.FrameType";
    private static final String FRAME = "jdk.types.StackFrame";
    private static final String STACK = "jdk.types.StackTrace";
    private static final String THREAD = "java.lang.Thread";
    private static final String SAMPLE = "jdk.ExecutionSample";
    private static final String NESTED = "torture.Nested";

    private final Lie lie;
    private final Random random;
    final int samples;
    private final int methods;
    private final int stacks;
    private final int threads;

    LyingRecording(Lie lie, Random random) {
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

    byte[] write() {
        boolean hugeTimestamps = lie == Lie.HUGE_TIMESTAMPS;
        JfrWriter w = new JfrWriter(JfrWriter.START_NANOS, 1_000_000_000L,
                hugeTimestamps ? Long.MAX_VALUE - random.nextInt(10) : 1_000_000, hugeTimestamps ? 1 : 1_000_000_000L);
        declareTypes(w);
        pools(w);
        for (int i = 0; i < samples; i++) {
            sample(w, i);
        }
        switch (lie) {
            case HUGE_METADATA_STRING_COUNT -> w.metadataStringCount(hugeLength());
            case DEEP_METADATA -> w.metadataDepth(1000 + random.nextInt(20_000));
            case POOL_DELTA_CYCLE -> w.checkpointCycle();
            case POOL_DELTA_OUTSIDE -> w.checkpointDelta(hugeLength());
            case HUGE_CHUNK_SIZE -> w.chunkSizeExcess(hugeLength());
            case METADATA_OFFSET_LIE -> w.metadataOffsetAt(random.nextDouble());
            default -> {
            }
        }
        return w.chunk();
    }

    private void declareTypes(JfrWriter w) {
        w.type(SYMBOL, null, Field.of("string", "java.lang.String"));
        w.type(CLASS, null, Field.pool("classLoader", LOADER), Field.pool("name", SYMBOL));
        w.type(LOADER, null, Field.pool("type", CLASS), Field.pool("name", SYMBOL));
        w.type(METHOD, null, Field.pool("type", CLASS), Field.pool("name", SYMBOL), Field.pool("descriptor", SYMBOL));
        w.type(FRAME_TYPE, null, Field.of("description", "java.lang.String"));
        w.type(FRAME, null, Field.pool("method", METHOD), Field.of("lineNumber", "int"), Field.of("bytecodeIndex", "int"),
                Field.pool("type", FRAME_TYPE));
        w.type(STACK, null, Field.of("truncated", "boolean"), Field.array("frames", FRAME));
        w.type(THREAD, null, Field.of("osName", "java.lang.String"), Field.of("osThreadId", "long"),
                Field.of("javaName", "java.lang.String"), Field.of("javaThreadId", "long"));
        w.type(SAMPLE, "jdk.jfr.Event", Field.of("startTime", "long"), Field.pool("sampledThread", THREAD),
                lie == Lie.UNDECLARED_FIELD_TYPE ? Field.undeclared("stackTrace", 999 + random.nextInt(1000))
                        : Field.pool("stackTrace", STACK));
        if (lie == Lie.SELF_NESTED_TYPE) {
            w.type(NESTED, null, Field.of("next", NESTED));
        }
        if (lie == Lie.DUPLICATE_TYPE_ID) {
            String[] taken = {STACK, THREAD, SAMPLE, "long"};
            w.type(w.typeId(taken[random.nextInt(taken.length)]), "torture.Duplicate", null, Field.of("x", "int"));
        }
    }

    private String name(String prefix, int i) {
        String[] odd = {"", "\u00e9t\u00e9", "\u6f22\u5b57", "<b>x</b>", "$lambda$0", "\u0000nul"};
        return prefix + i + odd[random.nextInt(odd.length)];
    }

    /** Symbols, class loader, classes, methods, frame types, threads, stacks (and the nested type's entry). */
    private void pools(JfrWriter w) {
        for (int i = 1; i <= methods * 2 + 2; i++) {
            Object text = lie == Lie.HUGE_STRING_LENGTH && i == 1
                    ? new JfrWriter.Raw(new JfrWriter.Bytes().u1(3).varint(hugeLength()).bytes())
                    : name(i % 2 == 0 ? "com.torture.C" : "m", i);
            w.constant(SYMBOL, i, text);
        }
        w.constant(LOADER, 1, 1L, 2L);
        for (int i = 1; i <= methods; i++) {
            w.constant(CLASS, i, lie == Lie.CLASS_LOADER_CYCLE ? 1L : 0L, 2L * i);
        }
        for (int i = 1; i <= methods; i++) {
            w.constant(METHOD, i, (long) i, 2L * i + 1, 2L);
        }
        w.constant(FRAME_TYPE, 1, "Interpreted").constant(FRAME_TYPE, 2, "JIT compiled");
        for (int i = 1; i <= threads; i++) {
            w.constant(THREAD, i, "os-" + i, 100L + i, name("worker-", i), (long) i);
        }
        for (int s = 1; s <= stacks; s++) {
            int depth = 1 + random.nextInt(20);
            List<Object[]> frames = new ArrayList<>();
            for (int f = 0; f < depth; f++) {
                long method = lie == Lie.MISSING_METHOD && f == 0 ? 10_000 + random.nextInt(1000) : 1 + random.nextInt(methods);
                frames.add(new Object[] {method, random.nextInt(500), random.nextInt(100), 1L + random.nextInt(2)});
            }
            Object array = frames;
            if (s == 1 && lie == Lie.HUGE_FRAME_COUNT) {
                array = new JfrWriter.Counted(hugeLength(), frames);
            } else if (s == 1 && lie == Lie.NEGATIVE_FRAME_COUNT) {
                array = new JfrWriter.Counted(-1L - random.nextInt(100), frames);
            }
            w.constant(STACK, s, false, array);
        }
        if (lie == Lie.HUGE_POOL_COUNT) {
            w.poolCount(STACK, hugeLength());
        }
        if (lie == Lie.SELF_NESTED_TYPE) {
            w.constant(NESTED, 1, new JfrWriter.Raw(new byte[0])); // its value would have to nest forever
        }
    }

    private void sample(JfrWriter w, int i) {
        Object time = 1_000_000 + i * 1000L;
        if (lie == Lie.OVERLONG_VARINT && i == 0) {
            JfrWriter.Bytes overlong = new JfrWriter.Bytes();
            for (int k = 0, n = 10 + random.nextInt(30); k < n; k++) {
                overlong.u1(0xff);
            }
            time = new JfrWriter.Raw(overlong.u1(0x01).bytes());
        }
        long thread = lie == Lie.MISSING_THREAD ? 500 + random.nextInt(100) : 1 + random.nextInt(threads);
        long stack = lie == Lie.MISSING_STACK ? 500 + random.nextInt(100) : 1 + random.nextInt(stacks);
        if (lie == Lie.EVENT_SIZE_LIE && i == samples / 2) {
            w.eventSized(random.nextBoolean() ? 1 + random.nextInt(3) : (int) Math.min(hugeLength() & 0x0fffffff, 0x0fffffff),
                    SAMPLE, time, thread, stack);
        } else {
            w.event(SAMPLE, time, thread, stack);
        }
    }
}
