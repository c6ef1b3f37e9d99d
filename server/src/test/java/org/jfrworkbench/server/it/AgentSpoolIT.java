package org.jfrworkbench.server.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.jfrworkbench.testkit.agent.AgentChunks;
import org.jfrworkbench.testkit.process.ChildJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent's upload spool while no server listens: bounded, oldest chunks dropped first. (Delivery to the real
 * server, exactly once after it comes up, is {@link AgentUploadIT}.)
 */
class AgentSpoolIT {
    @TempDir
    Path tmp;

    @Test
    void spoolStaysWithinItsBoundWhileNobodyListens() throws Exception {
        ChildJvm jvm = ChildJvm.jdk("25");
        Path dir = tmp.resolve("spool");
        long bound = 150 * 1024; // a few chunks
        Path log = tmp.resolve("app.log");
        Process app = jvm.start("dir=" + dir + ",interval=1s,spool-max=150k,upload=http://127.0.0.1:" + freePort(),
                List.of(), log, "org.jfrworkbench.samples.CheckoutService", "after", "stdin");
        // runs until the spool has gone over its bound and dropped chunks, however long that takes on a busy machine
        ChildJvm.await(app, log, () -> Files.readString(log).contains("oldest chunk"), () -> "no chunk dropped");
        String out = ChildJvm.stop(app, log);
        List<Path> left = AgentChunks.chunks(dir);
        long size = 0;
        for (Path p : left) {
            size += Files.size(p);
        }
        long newest = Files.size(left.get(left.size() - 1));
        assertTrue(size <= bound + newest, "spool holds " + size + " bytes in " + left.size() + " chunks");
        assertTrue(out.contains("dropped") && out.contains("oldest chunk"), out);
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
