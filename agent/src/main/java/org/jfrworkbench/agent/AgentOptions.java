package org.jfrworkbench.agent;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jfrworkbench.agent.events.HeapMonitor;

/**
 * Parsed agent options: a comma-separated list of {@code key=value} (or bare flags), for example
 * {@code dir=/var/jfr,interval=60s,cpu=10ms,alloc=100/s,live=true,label.service=checkout}.
 *
 * <p>Allocation sampling is either a fixed interval ({@code allocBytes > 0}, e.g. {@code alloc=512k}) or a target
 * number of samples per second ({@code allocPerSecond > 0}, e.g. {@code alloc=100/s}), for which the interval is
 * re-chosen from the measured allocation rate at every chunk; both 0 means off.
 */
public record AgentOptions(
        Path dir,
        Duration interval,
        Engine engine,
        Duration cpuInterval,
        CpuEngine cpuEngine,
        String cstack,
        Duration wallInterval,
        long allocBytes,
        int allocPerSecond,
        boolean live,
        Duration lockThreshold,
        URI upload,
        String token,
        long spoolMaxBytes,
        Duration nmtInterval,
        int heapSummariesPerSecond,
        HeapCount heapCount,
        long heapCountMaxBytes,
        Map<String, String> labels) {

    public enum Engine { AUTO, ASYNC, JFR }

    /**
     * When the JVM's exact heap by class (jdk.ObjectCountAfterGC) is recorded: {@code ALWAYS} at every collection that
     * writes it (full collections, G1's remarks), {@code NEVER} not at all, {@code AUTO} at most one such collection per
     * chunk, and only while the heap used after the last GC is at most {@link #heapCountMaxBytes} (see HeapCounter).
     */
    public enum HeapCount { AUTO, ALWAYS, NEVER }

    /**
     * The default bound of {@code heap-count=auto}: the count walks every live object inside the pause it is written
     * in, 10 to 35 ns of CPU an object on JDK 17 and 25 (docs/agent.md, Overhead), so the cost follows the number of
     * live objects, which the live heap's bytes bound. At this size a heap of the smallest objects (16 bytes) holds 8
     * million, at most about 0.3 s of CPU; a typical heap (40 to 60 bytes an object) a third of that, once a chunk
     * (60 s by default).
     */
    public static final long DEFAULT_HEAP_COUNT_MAX_BYTES = 128L * 1024 * 1024;

    /**
     * async-profiler's CPU sampler to begin with, each falling back to the next where it cannot start: {@code PERF}
     * perf_events, then itimer, then ctimer (perf_events can be refused by container policies); {@code ITIMER} itimer,
     * then ctimer; {@code CTIMER} ctimer, then itimer. {@code AUTO} is {@code CTIMER} at intervals of
     * {@link #CTIMER_MIN_INTERVAL} and more, {@code PERF} below (see {@link #cpuEvents()}).
     */
    public enum CpuEngine {
        AUTO, PERF, ITIMER, CTIMER
    }

    /**
     * The shortest CPU interval {@code cpu-engine=auto} samples with ctimer, the cheapest sampler for the same number of
     * samples (docs/benchmarks). CPU timers fire on the kernel's tick (250 Hz on many kernels), so finer intervals would
     * get fewer samples than asked: below this one perf_events sample.
     */
    public static final Duration CTIMER_MIN_INTERVAL = Duration.ofMillis(10);

    /** async-profiler's CPU events to try in turn for these options: the engine asked for, then its fallbacks. */
    public List<String> cpuEvents() {
        CpuEngine e = cpuEngine;
        if (e == CpuEngine.AUTO) {
            e = cpuInterval != null && cpuInterval.compareTo(CTIMER_MIN_INTERVAL) < 0 ? CpuEngine.PERF : CpuEngine.CTIMER;
        }
        return switch (e) {
            case PERF, AUTO -> List.of("cpu", "itimer", "ctimer");
            case ITIMER -> List.of("itimer", "ctimer");
            case CTIMER -> List.of("ctimer", "itimer");
        };
    }

    /** async-profiler's ways of walking native frames ({@code cstack=}); {@code no} records Java frames only. */
    public static final List<String> CSTACK_MODES = List.of("vm", "vmx", "fp", "dwarf", "lbr", "no");

    /**
     * Default allocation sampling: this many samples per second for each processor the JVM may use, at most
     * {@link #MAX_DEFAULT_ALLOC_PER_SECOND}. A sample costs async-profiler about the same CPU time (a stack walk, 3 to 10
     * microseconds measured with 60-frame stacks) however many processors there are, so the default keeps the sampler's
     * share of the processors the JVM may use alike: 250/s (a quarter of a per cent of a processor) on one, 1,000/s
     * from four. The live heap needs this many: its samples at a GC are the sampled objects allocated since the chunk
     * began that are still alive, about (live bytes allocated since then) / (sampling interval), and at 50/s a
     * retention workload's classes of 5 % of the heap had a handful each (docs/live-heap.md, Accuracy).
     */
    public static final int DEFAULT_ALLOC_PER_SECOND_PER_CPU = 250;

    /** The most the default allocation sampling aims at, however many processors. */
    public static final int MAX_DEFAULT_ALLOC_PER_SECOND = 1000;

    /**
     * The default per processor and at most under ZGC, the former defaults. async-profiler's live table takes no new
     * object once its 1,024 slots were full until a GC starts, and ZGC posts no GC start to it: the table stays full
     * from its first 1,024 samples to the chunk's end, so a higher rate only makes the tracked objects older (at
     * 500/s a retention workload's live samples at the chunk's last GC fell from 23-42 to 1-6; docs/live-heap.md,
     * Accuracy). Shenandoah does post it (163 live samples at 500/s against 45 at 100/s).
     */
    public static final int ZGC_ALLOC_PER_SECOND_PER_CPU = 50;
    public static final int ZGC_MAX_ALLOC_PER_SECOND = 150;

    /** The default allocation target for this JVM (its collector) if it may use {@code processors} processors. */
    public static int defaultAllocPerSecond(int processors) {
        return defaultAllocPerSecond(processors, zgc());
    }

    /** The default allocation target for a JVM that may use {@code processors} processors, under ZGC or not. */
    public static int defaultAllocPerSecond(int processors, boolean zgc) {
        int perCpu = zgc ? ZGC_ALLOC_PER_SECOND_PER_CPU : DEFAULT_ALLOC_PER_SECOND_PER_CPU;
        int max = zgc ? ZGC_MAX_ALLOC_PER_SECOND : MAX_DEFAULT_ALLOC_PER_SECOND;
        return Math.min(max, perCpu * Math.max(1, processors));
    }

    /** Whether this JVM collects with ZGC (its collector beans' names). */
    static boolean zgc() {
        for (java.lang.management.GarbageCollectorMXBean gc : java.lang.management.ManagementFactory.getGarbageCollectorMXBeans()) {
            if (gc.getName().startsWith("ZGC")) {
                return true;
            }
        }
        return false;
    }

    /** async-profiler's own default stack walker since 4.2; the walkers cost alike, so the agent keeps its choice. */
    public static final String DEFAULT_CSTACK = "vm";

    public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(60);

    /** Thrown for an option the agent cannot understand; the agent then logs it and does not start. */
    public static final class InvalidOptionException extends IllegalArgumentException {
        InvalidOptionException(String message) {
            super(message);
        }
    }

    public static AgentOptions parse(String text) {
        Path dir = null;
        Duration interval = DEFAULT_INTERVAL;
        Engine engine = Engine.AUTO;
        Duration cpu = Duration.ofMillis(10);
        CpuEngine cpuEngine = CpuEngine.AUTO;
        String cstack = DEFAULT_CSTACK;
        Duration wall = null;
        long alloc = 0;
        int allocPerSecond = defaultAllocPerSecond(Runtime.getRuntime().availableProcessors());
        boolean live = true;
        Duration lock = null;
        URI upload = null;
        String token = null;
        long spoolMax = 256L * 1024 * 1024;
        Duration nmt = Duration.ofSeconds(10);
        int heapSummaries = HeapMonitor.DEFAULT_MAX_PER_SECOND;
        HeapCount heapCount = HeapCount.AUTO;
        long heapCountMax = DEFAULT_HEAP_COUNT_MAX_BYTES;
        Map<String, String> labels = new LinkedHashMap<>();
        if (text != null && !text.isBlank()) {
            for (String part : text.split(",")) {
                String item = part.trim();
                if (item.isEmpty()) {
                    continue;
                }
                int eq = item.indexOf('=');
                String key = (eq < 0 ? item : item.substring(0, eq)).trim().toLowerCase(Locale.ROOT);
                String value = eq < 0 ? "" : item.substring(eq + 1).trim();
                if (key.startsWith("label.")) {
                    String name = item.substring(6, eq < 0 ? item.length() : eq).trim();
                    if (name.isEmpty()) {
                        throw new InvalidOptionException("empty label name in '" + item + "'");
                    }
                    labels.put(name, value);
                    continue;
                }
                switch (key) {
                    case "dir" -> dir = Path.of(require(key, value));
                    case "interval" -> interval = positive(key, duration(key, value));
                    case "engine" -> engine = engine(value);
                    case "cpu" -> cpu = isOff(value) ? null : positive(key, duration(key, value));
                    case "wall" -> wall = isOff(value) ? null : positive(key, duration(key, value));
                    case "cpu-engine" -> cpuEngine = cpuEngine(value);
                    case "cstack" -> cstack = cstack(value);
                    case "alloc" -> {
                        allocPerSecond = value.endsWith("/s") ? perSecond(key, value) : 0;
                        alloc = isOff(value) || allocPerSecond > 0 ? 0 : bytes(key, value);
                    }
                    case "live" -> live = bool(key, value);
                    case "heap-count" -> heapCount = heapCount(value);
                    case "heap-count-max" -> heapCountMax = bytes(key, value);
                    case "lock" -> lock = isOff(value) ? null : duration(key, value);
                    case "upload" -> upload = uri(value);
                    case "token" -> token = require(key, value);
                    case "spool-max" -> spoolMax = bytes(key, value);
                    case "nmt-interval" -> nmt = positive(key, duration(key, value));
                    case "heap-summaries" -> heapSummaries = isOff(value) ? 0
                            : value.equalsIgnoreCase("all") ? Integer.MAX_VALUE : perSecond(key, value.endsWith("/s") ? value : value + "/s");
                    default -> throw new InvalidOptionException("unknown option '" + key + "'");
                }
            }
        }
        if (live && alloc == 0 && allocPerSecond == 0) {
            throw new InvalidOptionException("live=true needs allocation sampling (alloc=SIZE)");
        }
        if (dir == null) {
            String service = labels.getOrDefault("service", "app");
            dir = Path.of(System.getProperty("java.io.tmpdir"), "workbench-agent", service + "-" + ProcessHandle.current().pid());
        }
        return new AgentOptions(dir.toAbsolutePath(), interval, engine, cpu, cpuEngine, cstack, wall, alloc, allocPerSecond, live, lock, upload, token,
                spoolMax, nmt, heapSummaries, heapCount, heapCountMax, Collections.unmodifiableMap(labels));
    }

    private static boolean isOff(String value) {
        return value.equalsIgnoreCase("off") || value.equalsIgnoreCase("false") || value.equals("0");
    }

    private static String require(String key, String value) {
        if (value.isEmpty()) {
            throw new InvalidOptionException("option '" + key + "' needs a value");
        }
        return value;
    }

    private static Engine engine(String value) {
        try {
            return Engine.valueOf(value.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new InvalidOptionException("engine must be auto, async or jfr, not '" + value + "'");
        }
    }

    private static CpuEngine cpuEngine(String value) {
        try {
            return CpuEngine.valueOf(value.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new InvalidOptionException("cpu-engine must be auto, perf, itimer or ctimer, not '" + value + "'");
        }
    }

    private static String cstack(String value) {
        String v = value.toLowerCase(Locale.ROOT);
        if (!CSTACK_MODES.contains(v)) {
            throw new InvalidOptionException("cstack must be one of " + String.join(", ", CSTACK_MODES) + ", not '" + value + "'");
        }
        return v;
    }

    /** A rate like {@code 100/s}. */
    private static int perSecond(String key, String value) {
        try {
            int n = Integer.parseInt(value.substring(0, value.length() - 2).trim());
            if (n > 0 && n <= 100_000) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new InvalidOptionException("option '" + key + "' needs a rate between 1/s and 100000/s, not '" + value + "'");
    }

    /** Whether anything is sampled (cpu, wall, allocations or locks); {@code live} needs allocation samples. */
    public boolean samplesAnything() {
        return cpuInterval != null || wallInterval != null || allocSampling() || lockThreshold != null;
    }

    /** Whether allocations are sampled at all (fixed interval or target rate). */
    public boolean allocSampling() {
        return allocBytes > 0 || allocPerSecond > 0;
    }

    private static HeapCount heapCount(String value) {
        if (value.equalsIgnoreCase("auto")) {
            return HeapCount.AUTO;
        }
        try {
            return bool("heap-count", value) ? HeapCount.ALWAYS : HeapCount.NEVER;
        } catch (InvalidOptionException e) {
            throw new InvalidOptionException("option 'heap-count' must be auto, true or false, not '" + value + "'");
        }
    }

    private static boolean bool(String key, String value) {
        if (value.isEmpty() || value.equalsIgnoreCase("true") || value.equalsIgnoreCase("on")) {
            return true;
        }
        if (isOff(value)) {
            return false;
        }
        throw new InvalidOptionException("option '" + key + "' must be true or false, not '" + value + "'");
    }

    private static URI uri(String value) {
        try {
            URI uri = URI.create(value);
            if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme()) || uri.getHost() == null) {
                throw new InvalidOptionException("upload must be an http(s)://host:port URL, not '" + value + "'");
            }
            return uri;
        } catch (IllegalArgumentException e) {
            throw new InvalidOptionException("upload must be an http(s)://host:port URL, not '" + value + "'");
        }
    }

    /** Durations like {@code 10ms}, {@code 60s}, {@code 5m}, {@code 500us}; a bare number means milliseconds. */
    static Duration duration(String key, String value) {
        String v = value.toLowerCase(Locale.ROOT);
        try {
            if (v.endsWith("ms")) {
                return Duration.ofMillis(Long.parseLong(v.substring(0, v.length() - 2)));
            } else if (v.endsWith("us")) {
                return Duration.ofNanos(Long.parseLong(v.substring(0, v.length() - 2)) * 1000);
            } else if (v.endsWith("ns")) {
                return Duration.ofNanos(Long.parseLong(v.substring(0, v.length() - 2)));
            } else if (v.endsWith("s")) {
                return Duration.ofSeconds(Long.parseLong(v.substring(0, v.length() - 1)));
            } else if (v.endsWith("m")) {
                return Duration.ofMinutes(Long.parseLong(v.substring(0, v.length() - 1)));
            } else if (v.endsWith("h")) {
                return Duration.ofHours(Long.parseLong(v.substring(0, v.length() - 1)));
            }
            return Duration.ofMillis(Long.parseLong(v));
        } catch (NumberFormatException e) {
            throw new InvalidOptionException("option '" + key + "' needs a duration like 10ms or 60s, not '" + value + "'");
        }
    }

    private static Duration positive(String key, Duration d) {
        if (d.isZero() || d.isNegative()) {
            throw new InvalidOptionException("option '" + key + "' must be positive");
        }
        return d;
    }

    /** Sizes like {@code 512k}, {@code 10m}, {@code 1g}, or plain bytes. */
    static long bytes(String key, String value) {
        String v = value.toLowerCase(Locale.ROOT);
        long unit = 1;
        if (v.endsWith("b")) {
            v = v.substring(0, v.length() - 1);
        }
        if (v.endsWith("k")) {
            unit = 1024;
        } else if (v.endsWith("m")) {
            unit = 1024 * 1024;
        } else if (v.endsWith("g")) {
            unit = 1024L * 1024 * 1024;
        }
        if (unit != 1) {
            v = v.substring(0, v.length() - 1);
        }
        try {
            long n = Long.parseLong(v);
            if (n <= 0 || n > Long.MAX_VALUE / unit) {
                throw new InvalidOptionException("option '" + key + "' must be a positive size, not '" + value + "'");
            }
            return n * unit;
        } catch (NumberFormatException e) {
            throw new InvalidOptionException("option '" + key + "' needs a size like 512k or 100m, not '" + value + "'");
        }
    }
}
