package org.jfrworkbench.agent.upload;

/**
 * How a spooled chunk names the run it belongs to: {@code <stem>@<runKey>@<runStartMillis>@<part>[@last].jfr}. The
 * name carries everything the upload needs, so a chunk left in the spool by an earlier process (or by this one before
 * the server came back) is delivered into its own run with its own part number, exactly once (the server stores a
 * part number once). A name without {@code @} is a chunk of an older agent, uploaded as a recording of its own.
 */
public final class RunParts {
    private RunParts() {
    }

    /** A chunk's run, part number and whether it is the run's last; part -1: no chunk, only the run's end. */
    public record Part(String stem, String runKey, long runStartMillis, int part, boolean last) {
        /** An empty file that only says the run ended (its last chunk went out without saying so). */
        public boolean endOnly() {
            return part < 0;
        }
    }

    /**
     * The name of an empty spool file that marks the run ended: {@code <stem>@<runKey>@<runStartMillis>@end.jfr}. A
     * JVM that exits while a rotation closes its chunk leaves no chunk to mark last; this says it instead.
     */
    public static String endFileName(String stem, String runKey, long runStartMillis) {
        return stem + '@' + runKey + '@' + runStartMillis + "@end" + Spool.SUFFIX;
    }

    /** The published name of a chunk (built without regex or formatting: it runs at every rotation). */
    public static String fileName(String stem, String runKey, long runStartMillis, int part, boolean last) {
        StringBuilder b = new StringBuilder(stem.length() + runKey.length() + 40).append(stem).append('@').append(runKey)
                .append('@').append(runStartMillis).append('@').append(part);
        if (last) {
            b.append("@last");
        }
        return b.append(Spool.SUFFIX).toString();
    }

    /** The run of a spooled chunk's file name, or null for a chunk without one. */
    public static Part parse(String fileName) {
        if (!fileName.endsWith(Spool.SUFFIX)) {
            return null;
        }
        String[] f = fileName.substring(0, fileName.length() - Spool.SUFFIX.length()).split("@", -1);
        boolean last = f.length == 5 && f[4].equals("last");
        if (f.length != 4 && !last) {
            return null;
        }
        try {
            if (f.length == 4 && f[3].equals("end")) {
                return new Part(f[0], f[1], Long.parseLong(f[2]), -1, true);
            }
            return new Part(f[0], f[1], Long.parseLong(f[2]), Integer.parseInt(f[3]), last);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /**
     * This process's run key: host, process id and JVM start time, the same for every start of the agent in this
     * process and different for every process. At most 128 characters of {@code [A-Za-z0-9._:-]}.
     */
    public static String runKey(String host, long pid, long jvmStartMillis) {
        StringBuilder h = new StringBuilder();
        for (int i = 0; i < host.length() && h.length() < 80; i++) {
            char c = host.charAt(i);
            boolean keep = c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '.' || c == '-';
            h.append(keep ? c : '-');
        }
        return (h.length() == 0 ? "host" : h) + ":" + pid + ":" + jvmStartMillis;
    }
}
