package org.jfrworkbench.agent;

import java.io.File;
import java.lang.instrument.Instrumentation;

/**
 * Entry points: {@code -javaagent:workbench-agent.jar=OPTIONS} (premain), dynamic attach (agentmain) and
 * {@code java -jar workbench-agent.jar PID [OPTIONS|stop]} which attaches to a running JVM.
 * Nothing here ever throws into the application: every failure is logged once and the application goes on.
 */
public final class Agent {
    private static ChunkRecorder recorder;
    /** The running recorder's shutdown hook, removed again by {@code stop} so start/stop cycles leave nothing behind. */
    private static Thread hook;

    private Agent() {
    }

    public static void premain(String args, Instrumentation inst) {
        launchInBackground(args);
    }

    public static void agentmain(String args, Instrumentation inst) {
        launchInBackground(args);
    }

    /** Starting the engines takes 0.1 to 1 s (more on a busy machine): never on the application's thread. */
    private static void launchInBackground(String args) {
        try {
            Thread t = new Thread(() -> launch(args), "workbench-agent-start");
            t.setDaemon(true);
            t.start();
        } catch (Throwable t) {
            Log.failureOnce("start", "not started", t);
        }
    }

    private static synchronized void launch(String args) {
        try {
            if (args != null && args.trim().equals("stop")) {
                if (recorder != null) {
                    recorder.stop(5000, false);
                    recorder = null;
                    try {
                        Runtime.getRuntime().removeShutdownHook(hook);
                    } catch (IllegalStateException exiting) {
                        // the JVM is already exiting: the hook runs and finds the recorder stopped
                    }
                    hook = null;
                    Log.info("stopped");
                }
                return;
            }
            if (recorder != null) {
                Log.info("already recording in this JVM; options ignored: " + args);
                return;
            }
            AgentOptions options = AgentOptions.parse(args);
            ChunkRecorder r = new ChunkRecorder(options);
            r.start();
            recorder = r;
            Thread h = new Thread(() -> stopQuietly(r), "workbench-agent-shutdown");
            Runtime.getRuntime().addShutdownHook(h);
            hook = h;
        } catch (Throwable t) {
            Log.failureOnce("start", "not started", t);
        }
    }

    /** Runs at JVM exit; bounded, so a stuck engine can never keep the application from exiting. */
    private static void stopQuietly(ChunkRecorder r) {
        try {
            Thread worker = new Thread(() -> {
                try {
                    r.stop(3000, true);
                } catch (Throwable t) {
                    Log.failureOnce("shutdown", "error at shutdown", t);
                }
            }, "workbench-agent-stop");
            worker.setDaemon(true);
            worker.start();
            worker.join(15_000);
        } catch (Throwable t) {
            Log.failureOnce("shutdown", "error at shutdown", t);
        }
    }

    /** {@code java -jar workbench-agent.jar PID [OPTIONS]}: loads this jar into the JVM with that process id. */
    public static void main(String[] args) throws Exception {
        if (args.length < 1 || args.length > 2 || !args[0].matches("\\d+")) {
            System.err.println("usage: java -jar workbench-agent.jar PID [OPTIONS|stop]");
            System.exit(2);
        }
        String jar = new File(Agent.class.getProtectionDomain().getCodeSource().getLocation().toURI()).getPath();
        String options = args.length > 1 ? args[1] : "";
        if (!options.equals("stop")) {
            AgentOptions.parse(options); // report a bad option here rather than in the target's log
        }
        Attacher.attach(args[0], jar, options);
        System.out.println("workbench agent " + (options.equals("stop") ? "stopped in " : "loaded into ") + args[0]);
    }
}
