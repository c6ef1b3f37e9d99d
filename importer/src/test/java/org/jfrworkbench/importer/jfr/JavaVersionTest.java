package org.jfrworkbench.importer.jfr;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;

import org.jfrworkbench.importer.Importer;
import org.jfrworkbench.model.JavaVersion;
import org.jfrworkbench.model.Profile;
import org.jfrworkbench.testkit.Recordings;
import org.jfrworkbench.testkit.jfr.Jdk8StyleRecording;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Java version of the recorded JVM, not HotSpot's: JDK 8u144's VM version "25.144-b01" is Java 8. */
class JavaVersionTest {
    @TempDir
    Path tmp;

    private Profile read(byte[] chunk) throws Exception {
        Path f = tmp.resolve("r" + System.nanoTime() + ".jfr");
        Files.write(f, chunk);
        return new Importer().read(f);
    }

    @Test
    void aJdk8RecordingIsJava8WithOrWithoutTheJavaVersionProperty() throws Exception {
        Profile withProperty = read(Jdk8StyleRecording.chunk(Jdk8StyleRecording.JVM_INFORMATION, true));
        assertEquals("8", withProperty.metadata().get("javaFeature"));
        assertEquals("1.8.0_144", withProperty.metadata().get("javaVersion"));
        // async-profiler writes the VM's bare version and java.vm.* properties only
        Profile bare = read(Jdk8StyleRecording.chunk("25.144-b01", false));
        assertEquals("8", bare.metadata().get("javaFeature"));
        assertEquals("8", bare.metadata().get("javaVersion"));
        assertEquals("25.144-b01", bare.metadata().get("jvmVersion"), "the VM's own version is still shown as such");
    }

    @Test
    void versionsOfJdk7To25() {
        assertEquals("7", JavaVersion.feature(null, null, null, "24.80-b11", null));
        assertEquals("8", JavaVersion.feature(null, null, null, "25.144-b01", null));
        assertEquals("8", JavaVersion.feature(null, null, null, null, Jdk8StyleRecording.JVM_INFORMATION));
        assertEquals("9", JavaVersion.feature("9.0.4", null, null, "9.0.4+11", null));
        assertEquals("11", JavaVersion.feature(null, null, null, "11.0.22+7-LTS", null));
        assertEquals("21", JavaVersion.feature(null, "21", null, null, null));
        assertEquals("25", JavaVersion.feature(null, null, null, "25.0.3+9-LTS", null));
        assertEquals("25", JavaVersion.feature(null, null, null, "25+36", null));
        assertEquals("", JavaVersion.feature(null, null, null, null, null));
    }

    @Test
    void realRecordingsOfJdk17And25() throws Exception {
        for (Path f : Recordings.jdk()) {
            String expected = f.getFileName().toString().startsWith("jdk17") ? "17" : "25";
            assertEquals(expected, new Importer().read(f).metadata().get("javaFeature"), f.toString());
        }
        // async-profiler records java.vm.version but no java.version
        assertEquals("25", new Importer().read(Recordings.smallAsyncProfiler()).metadata().get("javaFeature"));
    }
}
