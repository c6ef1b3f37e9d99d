package org.jfrworkbench.testkit.process;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs a demo workload in a fresh JVM of a given JDK, optionally with the agent; output goes to a log file. */
public record ChildJvm(String name, Path javaHome, Map<String, String> environment) {

    public static final Path AGENT_JAR = Path.of(System.getProperty("agent.jar", "../agent/target/workbench-agent.jar")).toAbsolutePath();
    public static final String CLASSES = System.getProperty("workload.classes", "../sample-recordings/target/classes");

    /** The JDK named by system property {@code jdk17.home} / {@code jdk25.home}; skips the test when it is missing. */
    public static ChildJvm jdk(String version) {
        String home = System.getProperty("jdk" + version + ".home", "/usr/lib/jvm/" + (version.equals("17") ? "java-17-openjdk-amd64" : "temurin-25-jdk-amd64"));
        assumeTrue(Files.isExecutable(Path.of(home, "bin", "java")), "JDK " + version + " not found at " + home);
        if (!Files.isRegularFile(AGENT_JAR)) {
            throw new IllegalStateException("agent jar missing: " + AGENT_JAR + " (build the agent module first)");
        }
        return new ChildJvm("jdk" + version, Path.of(home), Map.of());
    }

    /** The same JDK with one more environment variable for the child process. */
    public ChildJvm withEnvironment(String key, String value) {
        Map<String, String> env = new HashMap<>(environment);
        env.put(key, value);
        return new ChildJvm(name, javaHome, Map.copyOf(env));
    }

    public Path java() {
        return javaHome.resolve("bin/java");
    }

    /** Starts {@code mainClass} with the agent loaded with {@code agentOptions} (null: no agent). */
    public Process start(String agentOptions, List<String> jvmArgs, Path log, String mainClass, String... args) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(java().toString());
        cmd.add("--enable-native-access=ALL-UNNAMED");
        cmd.addAll(jvmArgs);
        if (agentOptions != null) {
            cmd.add("-javaagent:" + AGENT_JAR + "=" + agentOptions);
        }
        cmd.add("-cp");
        cmd.add(CLASSES);
        cmd.add(mainClass);
        cmd.addAll(List.of(args));
        Files.createDirectories(log.getParent());
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().putAll(environment);
        return pb.start();
    }

    /** Runs to the end and returns the combined output; fails when the JVM exits non-zero or hangs. */
    public String run(String agentOptions, List<String> jvmArgs, Path log, String mainClass, String... args) throws Exception {
        Process p = start(agentOptions, jvmArgs, log, mainClass, args);
        return finish(p, log);
    }

    /** A deadline only a stuck child reaches: on a loaded machine a JVM's start and exit alone can take tens of seconds. */
    public static final long STUCK_SECONDS = 300;

    /** Ends a workload started with {@code stdin} as its run length (closes its standard input) and waits as {@link #finish}. */
    public static String stop(Process p, Path log) throws Exception {
        p.getOutputStream().close();
        return finish(p, log);
    }

    /** Waits until the child printed {@code text} (e.g. that its main method runs); fails when it exits first. */
    public static void awaitOutput(Process p, Path log, String text) throws Exception {
        await(p, log, () -> Files.readString(log).contains(text), () -> "no '" + text + "' in the output");
    }

    public interface Check {
        boolean holds() throws Exception;
    }

    public interface Message {
        String get() throws Exception;
    }

    /** Polls until the condition holds; fails when the child exits first or after {@link #STUCK_SECONDS}. */
    public static void await(Process p, Path log, Check condition, Message message) throws Exception {
        for (long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(STUCK_SECONDS); !condition.holds(); ) {
            if (!p.isAlive() || System.nanoTime() > deadline) {
                throw new AssertionError((p.isAlive() ? "not within " + STUCK_SECONDS + " s: " : "child JVM exited first: ")
                        + message.get() + "\n" + Files.readString(log));
            }
            Thread.sleep(50);
        }
    }

    public static String finish(Process p, Path log) throws Exception {
        if (!p.waitFor(STUCK_SECONDS, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("child JVM did not finish: " + Files.readString(log));
        }
        String out = Files.readString(log);
        if (p.exitValue() != 0) {
            throw new AssertionError("child JVM exited with " + p.exitValue() + ":\n" + out);
        }
        return out;
    }

    @Override
    public String toString() {
        return name;
    }
}
