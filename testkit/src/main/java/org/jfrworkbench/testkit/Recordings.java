package org.jfrworkbench.testkit;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPOutputStream;

import javax.tools.ToolProvider;

import org.jfrworkbench.testkit.process.ChildJvm;

/**
 * Real recordings for the tests, made once from the workload in child JVMs (JDK 17 and 25 from the system properties
 * {@code jdk17.home}/{@code jdk25.home}) and cached under {@code target/recordings} for every test class.
 */
public final class Recordings {
    public static final Path DIR = Path.of("target", "recordings").toAbsolutePath();
    /** The workloads' shortest run: Workload also runs until it has made its GCs, however slow the machine. */
    private static final long WORKLOAD_MILLIS = 1000;
    /** NativeLeakTest allows the last 10 % of a run to be missing (async-profiler's tail): not shorter than this. */
    private static final long NATIVE_LEAK_MILLIS = 2000;

    private Recordings() {
    }

    /** The JDK-only recordings: default and profile settings on both JDKs, and JDK 25's CPU-time sampler. */
    public static synchronized List<Path> jdk() throws Exception {
        List<Path> out = new ArrayList<>();
        for (String jdk : List.of("17", "25")) {
            for (String settings : List.of("default", "profile")) {
                Path p = jfr(jdk, settings);
                if (p != null) {
                    out.add(p);
                }
            }
        }
        add(out, cpuTime());
        return out;
    }

    /** JDK 25's experimental jdk.CPUTimeSample (Linux), enabled on top of the default settings. */
    static Path cpuTime() throws Exception {
        return recorded("jdk25-cputime.jfr", "25", WORKLOAD_MILLIS,
                part -> new String[] {"-XX:StartFlightRecording=jdk.CPUTimeSample#enabled=true,"
                        + "jdk.CPUTimeSample#throttle=2ms,filename=" + part});
    }

    /** Every recording the tests have: JDK JFR, async-profiler (with and without jfrsync), gzip, multi-chunk. */
    public static synchronized List<Path> all() throws Exception {
        List<Path> out = new ArrayList<>(jdk());
        add(out, asyncProfiler("25", "ap25-cpu-alloc-live-lock", "event=cpu,alloc,live,lock"));
        add(out, asyncProfiler("25", "ap25-wall-nativemem", "event=cpu,wall=5ms,nativemem=0"));
        add(out, asyncProfiler("17", "ap17-jfrsync", "event=cpu,alloc,live,lock,jfrsync=default"));
        add(out, asyncProfiler("25", "ap25-jfrsync-profile", "event=cpu,alloc=64k,live,lock,wall=10ms,jfrsync=profile"));
        add(out, gzip());
        add(out, concatenated());
        return out;
    }

    /**
     * async-profiler 4.2 in wall-clock mode ({@code event=wall}): batched profiler.WallClockSample events, or with
     * {@code nobatch} jdk.ExecutionSample events in states RUNNABLE and SLEEPING, as async-profiler 2.x-3.x wrote them.
     */
    public static synchronized Path asyncProfilerWall(boolean batched) throws Exception {
        return batched ? require(asyncProfiler("25", "ap25-wall", "event=wall"))
                : require(asyncProfiler("25", "ap25-wall-nobatch", "event=wall,nobatch"));
    }

    /** async-profiler 4.2 sampling CPU and wall clock at once ({@code event=cpu,wall=5ms}). */
    public static synchronized Path asyncProfilerCpuAndWall() throws Exception {
        return require(asyncProfiler("25", "ap25-cpu-wall", "event=cpu,wall=5ms"));
    }

    /**
     * async-profiler 3.0 (its library from the jar named by the system property {@code asyncprofiler30.jar}) on JDK
     * 17, which it supports: every sample is a jdk.ExecutionSample, CPU ones in STATE_DEFAULT, wall ones RUNNABLE or
     * SLEEPING.
     */
    public static synchronized Path asyncProfiler30(String name, String options) throws Exception {
        return require(recorded(name + ".jfr", "17", WORKLOAD_MILLIS, part -> new String[] {"-agentpath:"
                + nativeLibrary("3.0", System.getProperty("asyncprofiler30.jar")) + "=start," + options + ",file=" + part}));
    }

    /**
     * Two samplers of cpu and of alloc in one file: a JDK recording with default settings runs while async-profiler
     * records cpu and alloc with jfrsync, so the JDK chunk holds the JDK's jdk.ExecutionSample and
     * jdk.ObjectAllocationSample events beside the profiler's samples.
     */
    public static synchronized Path asyncProfilerBesideJdk() throws Exception {
        return require(recorded("ap25-beside-jdk.jfr", "25", WORKLOAD_MILLIS,
                part -> new String[] {"-XX:StartFlightRecording=settings=default",
                    "-agentpath:" + nativeLibrary() + "=start,event=cpu,alloc,jfrsync=default,file=" + part}));
    }

    /**
     * For the browser tests, one file with what their filters need: async-profiler's cpu, alloc and wall-clock samples
     * (the wall ones RUNNABLE or SLEEPING) beside a JDK recording's cpu and alloc samples, two sources of each.
     */
    public static synchronized Path asyncProfilerWallBesideJdk() throws Exception {
        return require(recorded("ap25-wall-beside-jdk.jfr", "25", WORKLOAD_MILLIS,
                part -> new String[] {"-XX:StartFlightRecording=settings=default", "--enable-native-access=ALL-UNNAMED",
                    "-agentpath:" + nativeLibrary() + "=start,event=cpu,alloc,wall=5ms,jfrsync=default,file=" + part}));
    }

    /** A small async-profiler recording (one chunk, tens of kB). */
    public static synchronized Path smallAsyncProfiler() throws Exception {
        return require(asyncProfiler("25", "ap25-cpu-alloc-live-lock", "event=cpu,alloc,live,lock"));
    }

    public static synchronized Path jfrsync() throws Exception {
        return require(asyncProfiler("17", "ap17-jfrsync", "event=cpu,alloc,live,lock,jfrsync=default"));
    }

    /** JDK 25's recorder keeping 8 frames of each stack (profile settings): most stacks flagged truncated. */
    public static synchronized Path jdkShallowStacks() throws Exception {
        return require(recorded("jdk25-stackdepth8.jfr", "25", WORKLOAD_MILLIS, part -> new String[] {
            "-XX:FlightRecorderOptions=stackdepth=8", "-XX:StartFlightRecording=settings=profile,filename=" + part}));
    }

    public static synchronized Path jdk25Default() throws Exception {
        return require(jfr("25", "default"));
    }

    private static Path require(Path p) {
        assumeTrue(p != null, "the JDK for this recording is not installed");
        return p;
    }

    private static void add(List<Path> out, Path p) {
        if (p != null) {
            out.add(p);
        }
    }

    /** The JDK home for a version, or null when it is not installed. */
    public static Path jdkHome(String version) {
        String home = System.getProperty("jdk" + version + ".home");
        if ((home == null || home.isBlank()) && Integer.toString(Runtime.version().feature()).equals(version)) {
            home = System.getProperty("java.home");   // run outside surefire (e.g. the benchmark): this JVM will do
        }
        if (home == null || home.isBlank() || !Files.isExecutable(Path.of(home, "bin", "java"))) {
            return null;
        }
        return Path.of(home);
    }

    static Path jfr(String jdk, String settings) throws Exception {
        return recorded("jdk" + jdk + "-" + settings + ".jfr", jdk, WORKLOAD_MILLIS,
                part -> new String[] {"-XX:StartFlightRecording=settings=" + settings + ",filename=" + part});
    }

    public static Path asyncProfiler(String jdk, String name, String options) throws Exception {
        return asyncProfiler(jdk, name, options, WORKLOAD_MILLIS);
    }

    public static Path asyncProfiler(String jdk, String name, String options, long millis) throws Exception {
        return recorded(name + ".jfr", jdk, millis,
                part -> new String[] {"-agentpath:" + nativeLibrary() + "=start," + options + ",file=" + part});
    }

    /** The JVM options of a workload's run, given the file it records to. */
    private interface RecordingOptions {
        String[] of(Path part) throws IOException;
    }

    /**
     * The recording of that name, made once by the workload on that JDK with those options, or null when the JDK is
     * not installed.
     */
    private static Path recorded(String fileName, String jdk, long millis, RecordingOptions options) throws Exception {
        Path out = DIR.resolve(fileName);
        if (Files.exists(out)) {
            return out;
        }
        Path home = jdkHome(jdk);
        if (home == null) {
            return null;
        }
        Path part = partial(out);
        run(home, part, millis, options.of(part));
        return publish(part, out);
    }

    static Path gzip() throws Exception {
        Path out = DIR.resolve("jdk25-default.jfr.gz");
        Path source = jfr("25", "default");
        if (source == null) {
            return null;
        }
        if (!Files.exists(out)) {
            Path tmp = Files.createTempFile(DIR, "gz", ".tmp");
            try (OutputStream gz = new GZIPOutputStream(Files.newOutputStream(tmp))) {
                Files.copy(source, gz);
            }
            Files.move(tmp, out, StandardCopyOption.ATOMIC_MOVE);
        }
        return out;
    }

    /** Two recordings back to back: a valid multi-chunk file whose chunks have different type ids. */
    static Path concatenated() throws Exception {
        Path out = DIR.resolve("concatenated.jfr");
        Path a = asyncProfiler("25", "ap25-cpu-alloc-live-lock", "event=cpu,alloc,live,lock");
        Path b = jfr("17", "profile");
        if (a == null || b == null) {
            return null;
        }
        if (!Files.exists(out)) {
            concatenate(out, a, b, a);
        }
        return out;
    }

    /**
     * Parts to concatenate: different async-profiler recordings back to back. Every chunk has the same metadata, but
     * the same constant ids mean other methods and stacks in the second recording than in the first, so the importer
     * must notice the contradiction and start over (and may keep its caches between the two identical middle chunks).
     */
    public static List<Path> sameMetadataParts() throws Exception {
        Path a = require(asyncProfiler("25", "ap25-cpu-alloc-live-lock", "event=cpu,alloc,live,lock"));
        Path b = require(asyncProfiler("25", "ap25-wall-nativemem", "event=cpu,wall=5ms,nativemem=0"));
        return List.of(a, b, b, a);
    }

    /**
     * One long async-profiler recording (cpu, wall, alloc, live, lock) of {@code VariedWorkload}, a new chunk every
     * 5 s, until the file holds at least minBytes (at most 5 minutes): its chunks are not copies, each brings tens of
     * thousands of new stacks. For the benchmark.
     */
    public static synchronized Path variedAsyncProfiler(long minBytes) throws Exception {
        Path out = DIR.resolve("ap25-varied-" + (minBytes >> 20) + "mb.jfr");
        if (Files.exists(out)) {
            return out;
        }
        Path home = jdkHome("25");
        if (home == null) {
            return null;
        }
        Path part = partial(out);
        runMain(home, compiled("VariedWorkload", "17"), "VariedWorkload", part, List.of("300000", part.toString(),
                Long.toString(minBytes)), "-agentpath:" + nativeLibrary()
                + "=start,event=cpu,interval=1ms,alloc=16k,live,lock=0,wall=1ms,chunktime=5s,file=" + part);
        return publish(part, out);
    }

    /** Recordings are written under a temporary name and renamed when complete, so a cache hit is whole. */
    private static Path partial(Path out) throws IOException {
        Files.createDirectories(DIR);
        Path part = out.resolveSibling(out.getFileName() + ".part.jfr");
        Files.deleteIfExists(part);
        return part;
    }

    private static Path publish(Path part, Path out) throws IOException {
        Files.move(part, out, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        return out;
    }

    public static void concatenate(Path out, Path... parts) throws IOException {
        Path tmp = Files.createTempFile(out.toAbsolutePath().getParent(), "cat", ".tmp");
        try (OutputStream o = Files.newOutputStream(tmp)) {
            for (Path p : parts) {
                Files.copy(p, o);
            }
        }
        Files.move(tmp, out, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /** Another version's linux-x64 library, extracted from its jar (null or missing jar: the test is skipped). */
    static synchronized Path nativeLibrary(String version, String jar) throws IOException {
        assumeTrue(jar != null && Files.isRegularFile(Path.of(jar)), "async-profiler " + version + "'s jar is not there");
        Path lib = DIR.resolve("libasyncProfiler-" + version + ".so");
        if (!Files.exists(lib)) {
            Files.createDirectories(DIR);
            try (java.util.zip.ZipFile zip = new java.util.zip.ZipFile(jar)) {
                java.util.zip.ZipEntry e = zip.getEntry("linux-x64/libasyncProfiler.so");
                assumeTrue(e != null, "async-profiler " + version + "'s jar has no linux-x64 library");
                Path tmp = Files.createTempFile(DIR, "lib", ".tmp");
                try (InputStream in = zip.getInputStream(e)) {
                    Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
                }
                Files.move(tmp, lib, StandardCopyOption.ATOMIC_MOVE);
            }
        }
        return lib;
    }

    /** async-profiler's linux-x64 library, extracted from its jar on the test class path. */
    public static synchronized Path nativeLibrary() throws IOException {
        Path lib = DIR.resolve("libasyncProfiler.so");
        if (!Files.exists(lib)) {
            Files.createDirectories(DIR);
            try (InputStream in = Recordings.class.getResourceAsStream("/linux-x64/libasyncProfiler.so")) {
                assumeTrue(in != null, "async-profiler's linux-x64 library is not on the class path");
                Path tmp = Files.createTempFile(DIR, "lib", ".tmp");
                Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
                Files.move(tmp, lib, StandardCopyOption.ATOMIC_MOVE);
            }
        }
        return lib;
    }

    /** The workload compiled for Java 17, so both JDKs run it. */
    private static Path workloadClasses() throws IOException {
        return compiled("Workload", "17");
    }

    /** A workload from the test resources compiled for a Java release, into its own directory. */
    private static synchronized Path compiled(String name, String release) throws IOException {
        Path classes = DIR.resolve(name.equals("Workload") ? "workload" : "workload-" + name);
        if (Files.exists(classes.resolve(name + ".class"))) {
            return classes;
        }
        Files.createDirectories(classes);
        Path source = classes.resolve(name + ".java");
        try (InputStream in = Recordings.class.getResourceAsStream("/workload/" + name + ".java")) {
            Files.copy(in, source, StandardCopyOption.REPLACE_EXISTING);
        }
        int rc = ToolProvider.getSystemJavaCompiler().run(null, null, null,
                "--release", release, "-d", classes.toString(), source.toString());
        if (rc != 0) {
            throw new IOException("could not compile the workload " + name);
        }
        return classes;
    }

    /** JDK 25 recording of custom events named and shaped after the Datadog profiler's (see DatadogShaped). */
    public static synchronized Path datadogShaped() throws Exception {
        Path out = DIR.resolve("jdk25-datadog-shaped.jfr");
        if (Files.exists(out)) {
            return out;
        }
        Path home = require(jdkHome("25"));
        Path part = partial(out);
        // the JDK's own samplers off, so cpu and wall hold only the Datadog-shaped samples
        runMain(home, compiled("DatadogShaped", "17"), "DatadogShaped", part, WORKLOAD_MILLIS,
                "-XX:StartFlightRecording=jdk.ExecutionSample#enabled=false,jdk.NativeMethodSample#enabled=false,"
                        + "jdk.ObjectAllocationSample#enabled=false,filename=" + part);
        return publish(part, out);
    }

    /**
     * The Datadog-shaped events beside the JDK's own samplers (default settings): two sources of cpu
     * (datadog.ExecutionSample and jdk.ExecutionSample) and of alloc, as in a Datadog recording that also ran JDK JFR.
     */
    public static synchronized Path datadogShapedWithJdk() throws Exception {
        Path out = DIR.resolve("jdk25-datadog-shaped-with-jdk.jfr");
        if (Files.exists(out)) {
            return out;
        }
        Path home = require(jdkHome("25"));
        Path part = partial(out);
        // DatadogShaped sleeps a millisecond in each round: at the default 20 ms and with a short cpuWork its two
        // seconds got a JDK sample or two, and none on a loaded machine; cpuWork is now longer and the JDK samples
        // every 1 ms
        runMain(home, compiled("DatadogShaped", "17"), "DatadogShaped", part, WORKLOAD_MILLIS,
                "-XX:StartFlightRecording=settings=default,jdk.ExecutionSample#period=1ms,filename=" + part);
        return publish(part, out);
    }

    /**
     * async-profiler's nativemem engine recording every malloc and free (nativemem=0) of a JDK 25 workload that
     * frees most native memory at once (NativeLeak.churn) and keeps some for good (NativeLeak.leak).
     */
    public static synchronized Path nativeLeak() throws Exception {
        Path out = DIR.resolve("ap25-nativemem-leak.jfr");
        if (Files.exists(out)) {
            return out;
        }
        Path home = require(jdkHome("25"));
        Path part = partial(out);
        runMain(home, compiled("NativeLeak", "25"), "NativeLeak", part, NATIVE_LEAK_MILLIS, "--enable-native-access=ALL-UNNAMED",
                "-agentpath:" + nativeLibrary() + "=start,nativemem=0,file=" + part);
        return publish(part, out);
    }

    private static void run(Path home, Path out, long millis, String... jvmOptions) throws Exception {
        runMain(home, workloadClasses(), "Workload", out, millis, jvmOptions);
    }

    private static void runMain(Path home, Path classes, String main, Path out, long millis, String... jvmOptions)
            throws Exception {
        runMain(home, classes, main, out, List.of(Long.toString(millis)), jvmOptions);
    }

    /** Runs a workload main with its arguments (the first is its longest run time in milliseconds). */
    private static void runMain(Path home, Path classes, String main, Path out, List<String> args, String... jvmOptions)
            throws Exception {
        long millis = Long.parseLong(args.get(0));
        List<String> cmd = new ArrayList<>();
        cmd.add("-Xmx256m");
        cmd.addAll(List.of(jvmOptions));
        cmd.addAll(List.of("-cp", classes.toString(), main));
        cmd.addAll(args);
        Path log = DIR.resolve(out.getFileName() + ".log");
        // only a stuck workload takes this long: a loaded machine may take a minute to start a JVM and profiler
        ChildJvm.finish(ChildJvm.at(home).launch(cmd, log), log, millis / 1000 + ChildJvm.STUCK_SECONDS);
        if (!Files.exists(out) || Files.size(out) == 0) {
            throw new IOException("the workload wrote no recording, see " + log + ": " + cmd);
        }
    }
}
