package org.jfrworkbench.bench.inputs;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Records a workload (the generated service or the JDK's compiler) in a child JVM (this JVM's JDK) with async-profiler
 * or the JDK's recorder.
 */
final class Recorder {
    private Recorder() {
    }

    /**
     * Runs the workload until one of the spec's limits is reached, recording to a temporary file that is renamed to
     * out once complete (so a cached input is always whole).
     */
    static void record(InputSpec spec, Path classes, Path libDir, Path out) throws IOException, InterruptedException {
        // a name of its own, so two benchmarks making the same input at once do not write into one file
        Path part = Files.createTempFile(out.getParent(), out.getFileName() + ".", ".part");
        Files.delete(part);
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xmx" + spec.heap());
        cmd.add("--enable-native-access=ALL-UNNAMED");
        switch (spec.producer()) {
            case ASYNC_PROFILER -> cmd.add("-agentpath:" + nativeLibrary(libDir) + "=start,jfr," + spec.options() + ",file=" + part);
            case JFR -> {
                cmd.addAll(spec.jvmOptions());
                cmd.add("-XX:StartFlightRecording=" + spec.options() + ",filename=" + part);
            }
        }
        if (spec.workload() == InputSpec.Workload.COMPILER) {
            // this module's own classes hold the workload; it compiles the project's main sources against this JVM's
            // class path (the dependencies of the server, which those sources need)
            cmd.addAll(List.of("-cp", codeSource().toString(), CompilerWorkload.class.getName(), Long.toString(spec.seed()),
                    Integer.toString(spec.workers()), Double.toString(spec.maxSeconds()), Double.toString(spec.cpuSeconds()),
                    System.getProperty("java.class.path")));
            Path root = codeSource().getParent().getParent().getParent();
            for (String module : List.of("importer", "analysis", "server")) {
                cmd.add(root.resolve(module).resolve("src/main/java").toString());
            }
        } else {
            cmd.addAll(List.of("-cp", classes.toString(), ServiceWorkload.MAIN, Long.toString(spec.seed()),
                    Integer.toString(spec.workers()), Long.toString(spec.shapes()), Integer.toString(spec.diverge()),
                    Double.toString(spec.maxSeconds()),
                    Double.toString(spec.cpuSeconds())));
        }
        if (spec.stopAtBytes() > 0) {
            cmd.addAll(List.of(part.toString(), Long.toString(spec.stopAtBytes())));
        }
        Path log = out.resolveSibling(out.getFileName() + ".log");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!p.waitFor((long) spec.maxSeconds() + 300, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException("the workload did not finish; see " + log);
        }
        if (p.exitValue() != 0 || !Files.exists(part) || Files.size(part) == 0) {
            throw new IOException("recording " + spec.name() + " failed (exit " + p.exitValue() + "), see " + log
                    + ": " + String.join(" ", cmd));
        }
        Files.move(part, out, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /** This module's classes: benchmarks/target/classes (or a jar in benchmarks/target). */
    private static Path codeSource() {
        try {
            return Path.of(Recorder.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** async-profiler's linux-x64 library, extracted once from its jar on the class path. */
    private static synchronized Path nativeLibrary(Path dir) throws IOException {
        Path lib = dir.resolve("libasyncProfiler.so");
        if (!Files.exists(lib)) {
            Files.createDirectories(dir);
            try (InputStream in = Recorder.class.getResourceAsStream("/linux-x64/libasyncProfiler.so")) {
                if (in == null) {
                    throw new IOException("async-profiler's linux-x64 library is not on the class path");
                }
                Path tmp = Files.createTempFile(dir, "lib", ".tmp");
                Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
                Files.move(tmp, lib, StandardCopyOption.ATOMIC_MOVE);
            }
        }
        return lib;
    }
}
