package org.jfrworkbench.bench.inputs;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * Writes and compiles the Java sources of a service-like workload, the same for the same seed: thousands of classes in
 * a few dozen domain packages, each method calling a few others, under a fixed chain of web-framework frames, so
 * samples carry deep and varied stacks (20 to 120 frames, as in real services), plus hundreds of data classes to
 * allocate, contended monitors and locks, and waits that look like I/O.
 *
 * <p>Each request takes a path from an endpoint down the call graph. Requests come in "shapes" (a shape fixes the
 * path and its length) whose popularity falls off like 1/rank, and one branch in a hundred follows the data instead
 * of the shape: hot paths repeat, while the tail keeps bringing new stacks for the whole recording, like a service
 * with a long tail of rare requests.
 */
final class ServiceWorkload {
    /** Bumped whenever the generated code changes, so cached classes and recordings of an older version are not reused. */
    static final int VERSION = 5;
    static final String MAIN = "svc.Main";

    private static final String[] DOMAINS = {"orders", "payments", "pricing", "catalog", "inventory", "shipping",
        "customers", "auth", "search", "reviews", "notifications", "billing", "reporting", "gateway", "cache",
        "persistence", "messaging", "analytics", "recommendations", "fraud", "tax", "loyalty", "returns", "media"};
    private static final String[] NOUNS = {"Order", "Payment", "Price", "Product", "Stock", "Shipment", "Customer",
        "Token", "Query", "Review", "Message", "Invoice", "Report", "Route", "Cache", "Entity", "Event", "Metric", "Rule",
        "Session", "Cart", "Coupon", "Tax", "Address", "Account", "Ledger", "Batch", "Index", "Document", "Schema",
        "Tenant", "Quote", "Refund", "Offer", "Asset", "Vendor", "Warehouse", "Parcel", "Carrier", "Audit"};
    private static final String[] ROLES = {"Service", "Repository", "Validator", "Mapper", "Controller", "Handler",
        "Factory", "Resolver", "Codec", "Client", "Adapter", "Processor", "Calculator", "Builder", "Filter",
        "Interceptor", "Listener", "Serializer", "Provider", "Manager", "Policy", "Store", "Gateway", "Registry"};
    private static final String[] VERBS = {"load", "save", "validate", "compute", "apply", "resolve", "map", "convert",
        "handle", "process", "build", "check", "find", "update", "merge", "encode", "decode", "lookup", "publish",
        "render", "parse", "filter", "score", "price", "route", "schedule", "index", "fetch", "transform", "normalize",
        "enrich", "aggregate", "split", "reserve", "release", "authorize", "capture", "refresh", "evict", "collect"};
    private static final String[] FIELD_TYPES = {"long", "int", "double", "String", "Object", "long[]", "int[]",
        "java.util.List<Object>"};

    private static final int FRAMEWORK_FILTERS = 9;
    private static final int ENDPOINTS = 48;
    private static final int LOCKS = 6;

    /** The compiled workload of this seed under dir (made when missing); returns its class directory. */
    static synchronized Path compiled(Path dir, long seed, int classes) throws IOException {
        Path out = dir.resolve("service-workload-v" + VERSION + "-" + seed + "-" + classes);
        Path classDir = out.resolve("classes");
        if (Files.exists(out.resolve("complete"))) {
            return classDir;
        }
        // written and compiled in a directory of its own, then renamed: a cache hit is always whole
        Files.createDirectories(dir);
        Path work = Files.createTempDirectory(dir, out.getFileName() + ".");
        Path src = work.resolve("src");
        Path workClasses = work.resolve("classes");
        List<Path> files = new ServiceWorkload(seed, classes).write(src);
        Files.createDirectories(workClasses);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        if (javac == null) {
            throw new IOException("no Java compiler in this JDK: the benchmark inputs need one to build their workload");
        }
        List<String> args = new ArrayList<>(List.of("--release", "21", "-g", "-nowarn", "-encoding", "UTF-8",
                "-d", workClasses.toString()));
        files.forEach(f -> args.add(f.toString()));
        Path argFile = work.resolve("javac-args");
        Files.write(argFile, args);
        ByteArrayOutputStream messages = new ByteArrayOutputStream();
        if (javac.run(null, messages, messages, "@" + argFile) != 0) {
            throw new IOException("could not compile the generated workload: " + messages);
        }
        Files.writeString(work.resolve("complete"), "");
        try {
            Files.move(work, out, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            if (!Files.exists(out.resolve("complete"))) {
                throw e;
            }
            // another process made it meanwhile
        }
        return classDir;
    }

    private final Random random;
    private final int classCount;
    private final List<Method> methods = new ArrayList<>();
    private final List<String> dataClasses = new ArrayList<>();

    private record Method(String className, String name, int spin, int[] callees, int leafKind, int dataClass,
                          int lock) {
        String ref() {
            return className + "." + name;
        }
    }

    private ServiceWorkload(long seed, int classCount) {
        this.random = new Random(seed);
        this.classCount = classCount;
    }

    private List<Path> write(Path src) throws IOException {
        List<Path> files = new ArrayList<>();
        // data classes: what the service allocates, a few hundred types of several sizes
        int dataCount = Math.max(16, classCount / 6);
        Set<String> names = new LinkedHashSet<>();
        while (dataClasses.size() < dataCount) {
            String domain = pick(DOMAINS);
            String name = "com.acme." + domain + ".model." + pick(NOUNS) + pick(new String[] {"", "Line", "Item", "Entry",
                "Record", "View", "Snapshot", "Dto", "Key", "Summary"});
            if (names.add(name)) {
                dataClasses.add(name);
            }
        }
        for (String d : dataClasses) {
            files.add(writeDataClass(src, d));
        }
        // service classes and their methods; callees are chosen once all methods exist
        List<String> classNames = new ArrayList<>();
        names.clear();
        while (classNames.size() < classCount) {
            String name = "com.acme." + pick(DOMAINS) + "." + pick(NOUNS) + pick(ROLES);
            if (names.add(name)) {
                classNames.add(name);
            }
        }
        List<List<Integer>> methodsOf = new ArrayList<>();
        for (String c : classNames) {
            List<Integer> own = new ArrayList<>();
            Set<String> used = new LinkedHashSet<>();
            int n = 2 + random.nextInt(5);
            while (own.size() < n) {
                String verb = pick(VERBS);
                String name = random.nextBoolean() ? verb : verb + pick(NOUNS);
                if (used.add(name)) {
                    own.add(methods.size());
                    methods.add(new Method(c, name, spinCost(), null, leafKind(), random.nextInt(dataCount),
                            random.nextInt(LOCKS)));
                }
            }
            methodsOf.add(own);
        }
        for (int i = 0; i < methods.size(); i++) {
            Method m = methods.get(i);
            int[] callees = new int[1 + random.nextInt(4)];
            for (int j = 0; j < callees.length; j++) {
                callees[j] = random.nextInt(methods.size());
            }
            methods.set(i, new Method(m.className, m.name, m.spin, callees, m.leafKind, m.dataClass, m.lock));
        }
        for (int c = 0; c < classNames.size(); c++) {
            files.add(writeServiceClass(src, classNames.get(c), methodsOf.get(c)));
        }
        files.add(writeFramework(src));
        files.add(write(src, "svc.Ctx", CTX));
        files.add(write(src, "svc.Shared", SHARED.replace("LOCK_COUNT", Integer.toString(LOCKS))));
        files.add(write(src, "svc.Main", MAIN_SOURCE.replace("ENDPOINTS", Integer.toString(ENDPOINTS))));
        return files;
    }

    /** Iterations of a method's own work before it calls on: mostly little, a few methods heavy. */
    private int spinCost() {
        int r = random.nextInt(100);
        return r < 90 ? random.nextInt(4) : r < 98 ? 5 + random.nextInt(20) : 50 + random.nextInt(150);
    }

    private static final int COMPUTE = 0, ALLOCATE = 1, COLLECTION = 2, TEXT = 3, MONITOR = 4, LOCK = 5, IO = 6,
            KEEP = 7;

    private int leafKind() {
        int r = random.nextInt(100);
        if (r < 38) {
            return COMPUTE;
        }
        if (r < 58) {
            return ALLOCATE;
        }
        if (r < 68) {
            return COLLECTION;
        }
        if (r < 78) {
            return TEXT;
        }
        if (r < 84) {
            return MONITOR;
        }
        if (r < 88) {
            return LOCK;
        }
        if (r < 94) {
            return IO;
        }
        return KEEP;
    }

    private String pick(String[] from) {
        return from[random.nextInt(from.length)];
    }

    private Path writeDataClass(Path src, String fqcn) throws IOException {
        String simple = fqcn.substring(fqcn.lastIndexOf('.') + 1);
        StringBuilder b = new StringBuilder();
        b.append("package ").append(fqcn, 0, fqcn.lastIndexOf('.')).append(";\n\n");
        b.append("public final class ").append(simple).append(" {\n");
        int fields = 1 + random.nextInt(8);
        StringBuilder params = new StringBuilder();
        StringBuilder assigns = new StringBuilder();
        for (int i = 0; i < fields; i++) {
            String type = FIELD_TYPES[random.nextInt(FIELD_TYPES.length)];
            b.append("    public final ").append(type).append(" f").append(i).append(";\n");
            params.append(i == 0 ? "" : ", ").append(type).append(" f").append(i);
            assigns.append("        this.f").append(i).append(" = f").append(i).append(";\n");
        }
        b.append("\n    public ").append(simple).append("(").append(params).append(") {\n").append(assigns).append("    }\n\n");
        // a factory that fills each field from the request context
        b.append("    public static ").append(simple).append(" of(svc.Ctx c) {\n        return new ").append(simple).append("(");
        String[] types = params.toString().split(", ");
        for (int i = 0; i < types.length; i++) {
            String type = types[i].substring(0, types[i].lastIndexOf(' '));
            b.append(i == 0 ? "" : ", ").append(switch (type) {
                case "long" -> "c.nextLong()";
                case "int" -> "c.nextInt(1 << 20)";
                case "double" -> "c.nextInt(1000) / 7.0";
                case "String" -> "c.text()";
                case "Object" -> "c.last";
                case "long[]" -> "new long[1 + c.nextInt(24)]";
                case "int[]" -> "new int[1 + c.nextInt(96)]";
                default -> "new java.util.ArrayList<>(1 + c.nextInt(12))";
            });
        }
        b.append(");\n    }\n}\n");
        return write(src, fqcn, b.toString());
    }

    private Path writeServiceClass(Path src, String fqcn, List<Integer> own) throws IOException {
        String simple = fqcn.substring(fqcn.lastIndexOf('.') + 1);
        StringBuilder b = new StringBuilder();
        b.append("package ").append(fqcn, 0, fqcn.lastIndexOf('.')).append(";\n\n");
        b.append("public final class ").append(simple).append(" {\n    private ").append(simple).append("() {\n    }\n");
        for (int index : own) {
            Method m = methods.get(index);
            b.append("\n    public static Object ").append(m.name).append("(svc.Ctx c) {\n");
            b.append("        c.spin(").append(m.spin).append(");\n");
            b.append("        if (c.deeper()) {\n");
            if (m.callees.length == 1) {
                b.append("            return ").append(methods.get(m.callees[0]).ref()).append("(c);\n");
            } else {
                b.append("            switch (c.pick(").append(m.callees.length).append(")) {\n");
                for (int j = 0; j < m.callees.length; j++) {
                    b.append(j == m.callees.length - 1 ? "                default" : "                case " + j)
                            .append(": return ").append(methods.get(m.callees[j]).ref()).append("(c);\n");
                }
                b.append("            }\n");
            }
            b.append("        }\n");
            b.append(leaf(m));
            b.append("    }\n");
        }
        b.append("}\n");
        return write(src, fqcn, b.toString());
    }

    /** The work at the end of a request's path: where most samples of most kinds land. */
    private String leaf(Method m) {
        String data = dataClasses.get(m.dataClass);
        return switch (m.leafKind) {
            case COMPUTE -> "        c.spin(" + (1000 + random.nextInt(5000)) + ");\n        return c;\n";
            case ALLOCATE -> "        Object[] batch = new Object[1 + c.nextInt(" + (1 + random.nextInt(12)) + ")];\n"
                    + "        for (int i = 0; i < batch.length; i++) {\n"
                    + "            batch[i] = " + data + ".of(c);\n        }\n"
                    + "        c.last = batch[0];\n        return batch;\n";
            case COLLECTION -> "        java.util.Map<Object, Object> m = new java.util.HashMap<>();\n"
                    + "        for (int i = 0, n = 4 + c.nextInt(" + (8 + random.nextInt(64)) + "); i < n; i++) {\n"
                    + "            m.put(c.nextInt(1000), " + data + ".of(c));\n        }\n"
                    + "        return new java.util.ArrayList<>(m.values());\n";
            case TEXT -> "        StringBuilder sb = new StringBuilder();\n"
                    + "        for (int i = 0, n = 2 + c.nextInt(" + (4 + random.nextInt(24)) + "); i < n; i++) {\n"
                    + "            sb.append(c.text()).append(',').append(c.nextLong());\n        }\n"
                    + "        return sb.toString().split(\",\");\n";
            case MONITOR -> "        synchronized (svc.Shared.MONITORS[" + m.lock + "]) {\n"
                    + "            c.spin(" + (300 + random.nextInt(1700)) + ");\n        }\n        return c;\n";
            case LOCK -> "        svc.Shared.LOCKS[" + m.lock + "].lock();\n        try {\n"
                    + "            c.spin(" + (300 + random.nextInt(1700)) + ");\n"
                    + "            return " + data + ".of(c);\n        } finally {\n"
                    + "            svc.Shared.LOCKS[" + m.lock + "].unlock();\n        }\n";
            case IO -> "        svc.Shared.io(c, " + (50 + random.nextInt(1500)) + ");\n        return c;\n";
            default -> "        Object o = " + data + ".of(c);\n        svc.Shared.keep(c, o);\n        return o;\n";
        };
    }

    /** A fixed chain of framework frames above every endpoint, like a servlet container's filters and dispatcher. */
    private Path writeFramework(Path src) throws IOException {
        StringBuilder b = new StringBuilder();
        b.append("package org.acme.web;\n\n");
        b.append("public final class Container {\n    private Container() {\n    }\n\n");
        b.append("    public static Object serve(svc.Ctx c) {\n        c.spin(3);\n        return handle(c);\n    }\n\n");
        b.append("    static Object handle(svc.Ctx c) {\n        c.spin(2);\n        return filter0(c);\n    }\n");
        for (int i = 0; i < FRAMEWORK_FILTERS; i++) {
            String next = i + 1 < FRAMEWORK_FILTERS ? "filter" + (i + 1) : "dispatch";
            b.append("\n    static Object filter").append(i).append("(svc.Ctx c) {\n        c.spin(").append(1 + i % 3)
                    .append(");\n        return ").append(next).append("(c);\n    }\n");
        }
        b.append("\n    static Object dispatch(svc.Ctx c) {\n        c.spin(4);\n        switch (c.endpoint) {\n");
        for (int e = 0; e < ENDPOINTS; e++) {
            Method m = methods.get(random.nextInt(methods.size()));
            b.append(e == ENDPOINTS - 1 ? "            default" : "            case " + e).append(": return ")
                    .append(m.ref()).append("(c);\n");
        }
        b.append("        }\n    }\n}\n");
        return write(src, "org.acme.web.Container", b.toString());
    }

    private static Path write(Path src, String fqcn, String code) throws IOException {
        Path file = src.resolve(fqcn.replace('.', '/') + ".java");
        Files.createDirectories(file.getParent());
        Files.writeString(file, code);
        return file;
    }

    private static final String CTX = """
            package svc;

            /** One request: its shape fixes its path and depth; some branches follow the data instead. */
            public final class Ctx {
                public int endpoint;
                public Object last;
                long acc;
                private long shape;
                private long noise;
                private int depth;
                private int target;
                /** One branch in this many follows the data instead of the request's shape (0: none). */
                private final int diverge;

                Ctx(long seed, int diverge) {
                    noise = seed;
                    this.diverge = diverge;
                }

                void start(long shapeId, int endpoints) {
                    shape = mix(shapeId * 0x9E3779B97F4A7C15L + 0x632BE59BD9B4E019L);
                    endpoint = (int) Long.remainderUnsigned(shape, endpoints);
                    // framework frames (13) + path (7..104) + the leaf's library frames: 20 to 120 in all
                    target = 7 + (int) Long.remainderUnsigned(mix(shape), 98);
                    depth = 0;
                }

                static long mix(long z) {
                    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
                    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
                    return z ^ (z >>> 31);
                }

                public long nextLong() {
                    noise = mix(noise + 0x9E3779B97F4A7C15L);
                    return noise;
                }

                public int nextInt(int bound) {
                    return (int) Long.remainderUnsigned(nextLong(), bound);
                }

                public String text() {
                    return Long.toString(nextLong() & 0xffffffL, 36);
                }

                public boolean deeper() {
                    return ++depth < target;
                }

                /** The callee: the shape's choice, the first callee more often; now and then a branch follows the data. */
                public int pick(int n) {
                    shape = mix(shape + depth);
                    long s = diverge > 0 && nextInt(diverge) == 0 ? nextLong() : shape;
                    return (s & 3) == 0 ? 0 : (int) Long.remainderUnsigned(s >>> 2, n);
                }

                public void spin(int n) {
                    long x = acc;
                    for (int i = 0; i < n; i++) {
                        x = x * 6364136223846793005L + 1442695040888963407L;
                        x ^= x >>> 29;
                    }
                    acc = x;
                }
            }
            """;

    private static final String SHARED = """
            package svc;

            import java.util.concurrent.ConcurrentHashMap;
            import java.util.concurrent.locks.LockSupport;
            import java.util.concurrent.locks.ReentrantLock;

            /** What requests share: monitors and locks they contend on, a bounded cache that keeps objects live. */
            public final class Shared {
                public static final Object[] MONITORS = new Object[LOCK_COUNT];
                public static final ReentrantLock[] LOCKS = new ReentrantLock[LOCK_COUNT];
                private static final ConcurrentHashMap<Integer, Object> CACHE = new ConcurrentHashMap<>();

                static {
                    for (int i = 0; i < LOCK_COUNT; i++) {
                        MONITORS[i] = new Object();
                        LOCKS[i] = new ReentrantLock();
                    }
                }

                private Shared() {
                }

                /** A call to another service or a database: the thread waits. */
                public static void io(Ctx c, int micros) {
                    LockSupport.parkNanos(micros * 1000L);
                }

                public static void keep(Ctx c, Object o) {
                    CACHE.put(c.nextInt(50_000), o);
                }
            }
            """;

    private static final String MAIN_SOURCE = """
            package svc;

            import java.nio.file.Files;
            import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
            import java.util.ArrayList;
            import java.util.List;
            import java.util.SplittableRandom;
            import java.util.concurrent.LinkedBlockingQueue;
            import java.util.concurrent.atomic.AtomicLong;

            /**
             * Runs the service: worker threads serve requests of random shapes (popularity ~ 1/rank), idle pool threads
             * wait on a queue, a scheduler wakes up now and then. Arguments: seed, workers, request shapes, one branch in how
             * many follows the data (0: none), the longest run in seconds, the CPU seconds of the process to stop after (0: no
             * limit; a cpu profile then holds a set number of samples however busy the machine), then optionally a file
             * and a size: stop once the file (a recording that grows as it is written) reaches that size.
             */
            public final class Main {
                static volatile boolean stop;
                static final AtomicLong REQUESTS = new AtomicLong();
                static volatile Object sink;

                public static void main(String[] args) throws Exception {
                    long seed = Long.parseLong(args[0]);
                    int workers = Integer.parseInt(args[1]);
                    long shapes = Long.parseLong(args[2]);
                    int diverge = Integer.parseInt(args[3]);
                    long end = System.nanoTime() + (long) (Double.parseDouble(args[4]) * 1e9);
                    long cpuNanos = (long) (Double.parseDouble(args[5]) * 1e9);
                    com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean)
                            java.lang.management.ManagementFactory.getOperatingSystemMXBean();
                    Path file = args.length > 7 ? Path.of(args[6]) : null;
                    long bytes = args.length > 7 ? Long.parseLong(args[7]) : 0;
                    List<Thread> threads = new ArrayList<>();
                    for (int t = 0; t < workers; t++) {
                        long threadSeed = seed * 1000 + t;
                        threads.add(new Thread(() -> serve(threadSeed, shapes, diverge), "http-worker-" + t));
                    }
                    LinkedBlockingQueue<Runnable> queue = new LinkedBlockingQueue<>();
                    for (int t = 0; t < 6; t++) {
                        Thread idle = new Thread(() -> {
                            try {
                                while (true) {
                                    queue.take().run();
                                }
                            } catch (InterruptedException e) {
                                // shut down
                            }
                        }, "pool-idle-" + t);
                        idle.setDaemon(true);
                        idle.start();
                    }
                    Thread scheduler = new Thread(() -> {
                        Ctx c = new Ctx(seed, 0);
                        while (!stop) {
                            try {
                                Thread.sleep(20);
                            } catch (InterruptedException e) {
                                return;
                            }
                            c.spin(20_000);
                            sink = c.text();
                        }
                    }, "metrics-scheduler");
                    threads.add(scheduler);
                    threads.forEach(Thread::start);
                    while (!stop) {
                        Thread.sleep(100);
                        if (System.nanoTime() > end || (cpuNanos > 0 && os.getProcessCpuTime() >= cpuNanos)
                                || (file != null && Files.exists(file) && Files.size(file) >= bytes)) {
                            stop = true;
                        }
                    }
                    for (Thread t : threads) {
                        t.join();
                    }
                    System.out.println("requests " + REQUESTS.get());
                }

                static void serve(long seed, long shapes, int diverge) {
                    SplittableRandom r = new SplittableRandom(seed);
                    Ctx c = new Ctx(seed, diverge);
                    long served = 0;
                    while (!stop) {
                        // log-uniform rank: popularity ~ 1/rank, a long tail of rare shapes
                        long shape = (long) Math.pow(shapes, r.nextDouble());
                        c.start(shape, ENDPOINTS);
                        sink = org.acme.web.Container.serve(c);
                        if (++served % 64 == 0) {
                            REQUESTS.addAndGet(64);
                        }
                    }
                }
            }
            """;
}
