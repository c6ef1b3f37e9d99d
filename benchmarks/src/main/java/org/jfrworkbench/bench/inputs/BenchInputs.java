package org.jfrworkbench.bench.inputs;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.jfrworkbench.bench.inputs.InputSpec.Producer;
import org.jfrworkbench.importer.Importer;
import org.jfrworkbench.model.Kind;
import org.jfrworkbench.model.Profile;

/**
 * The benchmark inputs: recordings of a generated service workload ({@link ServiceWorkload}: thousands of classes,
 * stacks 20 to 120 deep, hundreds of thousands of distinct stacks) made by async-profiler in its modes and by the
 * JDK's recorder, in sizes of about 5, 50 and 300 MB, as one long chunk and as many chunks; and of a real program,
 * the JDK's compiler ({@link CompilerWorkload}). Each is made on first
 * use and cached, with its facts (size, chunks, samples, distinct stacks), under {@code benchmarks/target/bench-inputs}
 * or the directory named by the system property {@code bench.inputs}. Benchmarks name the inputs they need:
 * {@code BenchInputs.get("ap-cpu-50mb")}.
 *
 * <p>Run as a program it makes the named inputs (all when none is named) and prints their facts:
 * {@code benchmarks/run.sh BenchInputs [NAME...]}.
 */
public final class BenchInputs {
    private static final long MB = 1L << 20;
    private static final Map<String, InputSpec> SPECS = new LinkedHashMap<>();
    /** Inputs made only as the other side of a diff: {@link #get} and {@link #facts} know them, {@link #names} not. */
    private static final Map<String, InputSpec> PARTNERS = new LinkedHashMap<>();

    static {
        // async-profiler samples cpu every 100 us of CPU time: on a small machine that gives as many samples per
        // second as 1 ms on the 8 to 16 cores of a real service; the cpu recordings stop after a set CPU time, so
        // they hold the same number of samples however busy the machine is
        String cpu = "event=cpu,interval=100us";
        add(InputSpec.of("ap-cpu-5mb", "async-profiler cpu, one chunk", Producer.ASYNC_PROFILER, cpu)
                .stopAfter(600, 2.8, 0));
        add(InputSpec.of("ap-cpu-50mb", "async-profiler cpu, one chunk", Producer.ASYNC_PROFILER, cpu)
                .stopAfter(1800, 36, 0));
        add(InputSpec.of("ap-cpu-50mb-chunks", "async-profiler cpu, a chunk every 2 s", Producer.ASYNC_PROFILER,
                cpu + ",chunktime=2s").stopAfter(1800, 0, 50 * MB));
        add(InputSpec.of("ap-wall-50mb", "async-profiler wall clock (event=wall), one chunk", Producer.ASYNC_PROFILER,
                "event=wall,interval=250us").stopAfter(120, 0, 0));
        add(InputSpec.of("ap-cpuwall-50mb", "async-profiler cpu and wall clock, one chunk", Producer.ASYNC_PROFILER,
                cpu + ",wall=1ms").stopAfter(1800, 31, 0));
        add(InputSpec.of("ap-cpualloc-38mb", "async-profiler cpu and alloc, one chunk", Producer.ASYNC_PROFILER,
                cpu + ",alloc=16k").stopAfter(1800, 23, 0));
        add(InputSpec.of("ap-jfrsync-50mb", "async-profiler cpu and alloc with the JDK's profile recording (jfrsync)",
                Producer.ASYNC_PROFILER, cpu + ",alloc=16k,jfrsync=profile").stopAfter(1800, 31, 0));
        add(InputSpec.of("jfr-profile-5mb", "JDK Flight Recorder, settings=profile", Producer.JFR, "settings=profile")
                .stopAfter(60, 0, 0));
        add(InputSpec.of("jfr-profile-50mb-chunks", "JDK Flight Recorder, settings=profile with 1 ms execution "
                + "samples, 4 MB chunks", Producer.JFR, "settings=profile,jdk.ExecutionSample#period=1ms")
                .withJvmOptions("-XX:FlightRecorderOptions:maxchunksize=4m").stopAfter(520, 0, 0));
        add(InputSpec.of("ap-cpu-300mb", "async-profiler cpu, one chunk", Producer.ASYNC_PROFILER, cpu)
                .stopAfter(3600, 360, 0));
        add(InputSpec.of("ap-cpuwall-300mb-chunks", "async-profiler cpu and wall clock, a chunk every 10 s",
                Producer.ASYNC_PROFILER, cpu + ",wall=1ms,chunktime=10s").stopAfter(3600, 0, 300 * MB));
        // a real program beside the generated one: javac's deep recursion, on two threads
        add(InputSpec.of("javac-cpu-140mb", "async-profiler cpu of javac compiling this project, one chunk",
                Producer.ASYNC_PROFILER, cpu).stopAfter(1800, 100, 0).compiling(2, 1));
        // another run of it for diffs (ServerBenchmark input:javac-cpu-140mb), not an input of its own
        PARTNERS.put("javac-cpu-140mb-b", InputSpec.of("javac-cpu-140mb-b", "async-profiler cpu of javac compiling this "
                + "project, one chunk, another run", Producer.ASYNC_PROFILER, cpu).stopAfter(1800, 80, 0).compiling(2, 2));
    }

    private static void add(InputSpec spec) {
        SPECS.put(spec.name(), spec);
    }

    private BenchInputs() {
    }

    /** Every input's name, in the order of the table in docs/benchmarks/README.md. */
    public static List<String> names() {
        return List.copyOf(SPECS.keySet());
    }

    /** What the input is (producer and mode, chunking). */
    public static String description(String name) {
        return spec(name).description();
    }

    /** The input's file, recorded first when it is not in the cache (that takes from seconds to minutes). */
    public static synchronized Path get(String name) throws IOException {
        InputSpec spec = spec(name);
        Path dir = dir();
        Path out = dir.resolve(fileName(spec));
        if (!Files.exists(out)) {
            Files.createDirectories(dir);
            System.err.printf("bench-inputs: recording %s (%s) into %s%n", name, spec.description(), out);
            long t0 = System.nanoTime();
            Path classes = spec.workload() == InputSpec.Workload.SERVICE
                    ? ServiceWorkload.compiled(dir, spec.seed(), spec.classes()) : null;
            try {
                Recorder.record(spec, classes, dir, out);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while recording " + name, e);
            }
            System.err.printf("bench-inputs: %s done in %.0f s, %.1f MB%n", name, (System.nanoTime() - t0) / 1e9,
                    Files.size(out) / (double) MB);
        }
        return out;
    }

    /** The input's facts: made once from the file (chunk count from the chunk headers, the rest from our importer). */
    public static synchronized Facts facts(String name) throws IOException {
        Path file = get(name);
        Path factsFile = file.resolveSibling(file.getFileName() + ".facts");
        Properties p = new Properties();
        if (Files.exists(factsFile)) {
            try (Reader r = Files.newBufferedReader(factsFile)) {
                p.load(r);
            }
        } else {
            p.setProperty("bytes", Long.toString(Files.size(file)));
            p.setProperty("chunks", Integer.toString(chunkCount(file)));
            Profile profile = new Importer().read(file);
            long samples = 0;
            StringBuilder kinds = new StringBuilder();
            for (Kind k : Kind.values()) {
                int n = profile.samples(k).size();
                samples += n;
                if (n > 0) {
                    kinds.append(kinds.isEmpty() ? "" : ", ").append(k.name().toLowerCase()).append(' ').append(n);
                }
            }
            p.setProperty("samples", Long.toString(samples));
            p.setProperty("kinds", kinds.toString());
            p.setProperty("stacks", Integer.toString(profile.stacks().size()));
            p.setProperty("events", Long.toString(profile.sourceEvents().values().stream().mapToLong(Long::longValue).sum()));
            Path tmp = Files.createTempFile(factsFile.getParent(), "facts", ".tmp");
            try (Writer w = Files.newBufferedWriter(tmp)) {
                p.store(w, name);
            }
            Files.move(tmp, factsFile, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        }
        return new Facts(name, spec(name).description(), file, Long.parseLong(p.getProperty("bytes")),
                Integer.parseInt(p.getProperty("chunks")), Long.parseLong(p.getProperty("events")),
                Long.parseLong(p.getProperty("samples")), p.getProperty("kinds"), Integer.parseInt(p.getProperty("stacks")));
    }

    /** What an input holds. */
    public record Facts(String name, String description, Path file, long bytes, int chunks, long events, long samples,
                        String kinds, int distinctStacks) {
        @Override
        public String toString() {
            return String.format("%-22s %7.1f MB %5d chunks %,10d events %,10d samples (%s) %,9d distinct stacks  %s",
                    name, bytes / (double) MB, chunks, events, samples, kinds, distinctStacks, description);
        }
    }

    /** Where inputs are cached: {@code -Dbench.inputs=DIR}, else {@code bench-inputs} in the benchmarks module's target. */
    public static Path dir() {
        String configured = System.getProperty("bench.inputs");
        if (configured != null && !configured.isBlank()) {
            return Path.of(configured).toAbsolutePath();
        }
        try {
            // this class is in benchmarks/target/classes (or a jar in benchmarks/target)
            Path classes = Path.of(BenchInputs.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return classes.getParent().resolve("bench-inputs");
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Whether the input has another run of its workload, NAME-b, for diffs. */
    public static boolean hasPartner(String name) {
        return PARTNERS.containsKey(name + "-b");
    }

    private static InputSpec spec(String name) {
        InputSpec spec = SPECS.containsKey(name) ? SPECS.get(name) : PARTNERS.get(name);
        if (spec == null) {
            throw new IllegalArgumentException("no benchmark input " + name + "; there are " + names());
        }
        return spec;
    }

    /** The name carries the workload's version and the spec's hash, so a changed spec is recorded afresh. */
    private static String fileName(InputSpec spec) {
        // the service's recipes read as before the compiler came, so that their recorded files stay valid
        String recipe = (spec.workload() == InputSpec.Workload.SERVICE ? "" : spec.workload() + " ")
                + spec.producer() + " " + spec.options() + " " + spec.jvmOptions() + " " + spec.seed() + " "
                + spec.classes() + " " + spec.workers() + " " + spec.shapes() + " " + spec.diverge() + " " + spec.maxSeconds() + " "
                + spec.cpuSeconds() + " " + spec.stopAtBytes() + " " + spec.heap();
        return spec.name() + "-v" + ServiceWorkload.VERSION + "-" + Integer.toHexString(recipe.hashCode()) + ".jfr";
    }

    /** Number of chunks, walking the chunk headers (each states its size). */
    static int chunkCount(Path file) throws IOException {
        int chunks = 0;
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long offset = 0;
            ByteBuffer head = ByteBuffer.allocate(16);
            while (offset + 16 <= ch.size()) {
                head.clear();
                ch.read(head, offset);
                long size = head.getLong(8);
                if (head.getInt(0) != 0x464c5200 || size <= 0) {
                    break;
                }
                chunks++;
                offset += size;
            }
        }
        return chunks;
    }

    public static void main(String[] args) throws Exception {
        List<String> wanted = args.length > 0 ? List.of(args) : names();
        for (String name : wanted) {
            System.out.println(facts(name));
        }
    }
}
