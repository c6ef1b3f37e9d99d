package org.jfrworkbench.model;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Java feature version (8, 11, 17, 25) of a recorded JVM, from what the recording says about it. Before JDK 9
 * HotSpot numbered itself apart from Java: JDK 7's VM is "24.x-bNN", JDK 8's "25.x-bNN" (8u144: "25.144-b01"), so a
 * VM version alone would make a JDK 8 recording "Java 25". The Java properties come first; HotSpot's own version
 * only when nothing else is recorded.
 */
public final class JavaVersion {
    /** java.version and java.specification.version: "1.8.0_144", "1.8", "17.0.15", "25", "9-ea". */
    private static final Pattern JAVA = Pattern.compile("^\\s*(?:1\\.)?(\\d+)");
    /** JDK 7/8 HotSpot: "25.144-b01" (the "-b" build suffix never appears in a JDK 9+ version). */
    private static final Pattern OLD_HOTSPOT = Pattern.compile("^\\s*(2[0-5])\\.\\d+-b\\d+");
    /** jdk.JVMInformation's jvmVersion: "... VM (25.144-b01) for linux-amd64 JRE (1.8.0_144-b01), built on ...". */
    private static final Pattern JRE = Pattern.compile("JRE \\(([^)]*)\\)");
    private static final Pattern VM = Pattern.compile("\\(([^)]*)\\)");

    private JavaVersion() {
    }

    /**
     * The feature version as text ("8"), or "" when none of the values tells. Arguments may be null: java.version,
     * java.specification.version, java.vm.specification.version, java.vm.version, jdk.JVMInformation's jvmVersion.
     */
    public static String feature(String javaVersion, String specVersion, String vmSpecVersion, String vmVersion,
                                 String jvmInformation) {
        for (String v : new String[] {javaVersion, specVersion, vmSpecVersion}) {
            String f = ofJava(v);
            if (!f.isEmpty()) {
                return f;
            }
        }
        if (jvmInformation != null) {
            Matcher jre = JRE.matcher(jvmInformation);
            if (jre.find() && !ofJava(jre.group(1)).isEmpty()) {
                return ofJava(jre.group(1));
            }
            Matcher vm = VM.matcher(jvmInformation);
            if (vm.find() && !ofVm(vm.group(1)).isEmpty()) {
                return ofVm(vm.group(1));
            }
        }
        String f = ofVm(vmVersion);
        return f.isEmpty() ? ofVm(jvmInformation) : f;
    }

    /** A Java version string's feature number: "1.8.0_144" and "1.8" are 8, "17.0.15" is 17. */
    static String ofJava(String v) {
        if (v == null) {
            return "";
        }
        Matcher m = JAVA.matcher(v);
        return m.find() ? Integer.toString(Integer.parseInt(m.group(1))) : "";
    }

    /** A VM version's: HotSpot 24.x-bNN is Java 7 and 25.x-bNN Java 8; from JDK 9 on the VM's version is Java's. */
    static String ofVm(String v) {
        if (v == null) {
            return "";
        }
        Matcher old = OLD_HOTSPOT.matcher(v);
        if (old.find()) {
            return Integer.toString(Integer.parseInt(old.group(1)) - 17);
        }
        return ofJava(v);
    }
}
