package org.jfrworkbench.testkit.jfr;

import org.jfrworkbench.testkit.jfr.JfrWriter.Field;

/**
 * A chunk carrying what a JDK 8u144 JVM says about itself: HotSpot's own version "25.144-b01" (Java 8's VM, not
 * Java 25), with or without the java.version property (async-profiler records only java.vm.* properties).
 */
public final class Jdk8StyleRecording {
    public static final String JVM_INFORMATION = "Java HotSpot(TM) 64-Bit Server VM (25.144-b01) for linux-amd64 JRE "
            + "(1.8.0_144-b01), built on Jul 21 2017 21:57:33 by \"java_re\" with gcc 4.3.0 20080428 (Red Hat 4.3.0-8)";

    private Jdk8StyleRecording() {
    }

    /** jvmInformation: the jdk.JVMInformation jvmVersion (async-profiler writes HotSpot's bare "25.144-b01"). */
    public static byte[] chunk(String jvmInformation, boolean withJavaVersion) {
        JfrWriter w = new JfrWriter(JfrWriter.START_NANOS, 1_000_000_000L);
        w.type("jdk.types.Symbol", null, Field.of("string", "java.lang.String"));
        w.type("java.lang.Class", null, Field.pool("name", "jdk.types.Symbol"));
        w.type("jdk.types.Method", null, Field.pool("type", "java.lang.Class"), Field.pool("name", "jdk.types.Symbol"),
                Field.pool("descriptor", "jdk.types.Symbol"));
        w.type("jdk.types.StackFrame", null, Field.pool("method", "jdk.types.Method"), Field.of("lineNumber", "int"));
        w.type("jdk.types.StackTrace", null, Field.of("truncated", "boolean"), Field.array("frames", "jdk.types.StackFrame"));
        w.type("java.lang.Thread", null, Field.of("javaName", "java.lang.String"), Field.of("javaThreadId", "long"));
        w.type("jdk.JVMInformation", "jdk.jfr.Event", Field.timestamp("startTime", "long", "TICKS"),
                Field.of("jvmName", "java.lang.String"), Field.of("jvmVersion", "java.lang.String"));
        w.type("jdk.InitialSystemProperty", "jdk.jfr.Event", Field.timestamp("startTime", "long", "TICKS"),
                Field.of("key", "java.lang.String"), Field.of("value", "java.lang.String"));
        w.type("jdk.ExecutionSample", "jdk.jfr.Event", Field.timestamp("startTime", "long", "TICKS"),
                Field.pool("sampledThread", "java.lang.Thread"), Field.pool("stackTrace", "jdk.types.StackTrace"));
        w.constant("jdk.types.Symbol", 1, "app/Main").constant("jdk.types.Symbol", 2, "main")
                .constant("jdk.types.Symbol", 3, "()V");
        w.constant("java.lang.Class", 10, 1L);
        w.constant("jdk.types.Method", 20, 10L, 2L, 3L);
        w.constant("jdk.types.StackTrace", 30, false, java.util.List.<Object[]>of(new Object[] {20L, 7}));
        w.constant("java.lang.Thread", 5, "main", 1L);
        w.event("jdk.JVMInformation", 100L, "Java HotSpot(TM) 64-Bit Server VM", jvmInformation);
        w.event("jdk.InitialSystemProperty", 100L, "java.vm.version", "25.144-b01");
        w.event("jdk.InitialSystemProperty", 100L, "java.vm.specification.version", "1.8");
        if (withJavaVersion) {
            w.event("jdk.InitialSystemProperty", 100L, "java.version", "1.8.0_144");
        }
        w.event("jdk.ExecutionSample", 1_000L, 5L, 30L).event("jdk.ExecutionSample", 2_000L, 5L, 30L);
        return w.chunk();
    }
}
