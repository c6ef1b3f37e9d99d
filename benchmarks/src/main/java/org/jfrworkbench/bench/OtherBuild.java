package org.jfrworkbench.bench;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Map;

/**
 * The importer of another build (its classes directory or jar: {@code -Dbench.vs=DIR}), loaded through a class loader
 * of its own whose parent is the platform's, so that none of its classes is this build's. {@link ImportBench} reads
 * with it in turn with this build's importer in one JVM: both compiled and warmed alike, each round's reads moments
 * apart, which is what makes a difference of a few per cent between two builds visible on a shared machine.
 */
final class OtherBuild {
    private final Path location;
    private final Class<?> importer;
    private final Method read;
    private final Method samples;
    private final Method sourceEvents;
    private final Method stacks;
    private final Object[] kinds;

    OtherBuild(Path location) throws IOException {
        if (!Files.exists(location.resolve("org/jfrworkbench/importer/Importer.class"))
                && !Files.isRegularFile(location)) {
            throw new IOException("-Dbench.vs=" + location + ": no importer classes there "
                    + "(org/jfrworkbench/importer/Importer.class)");
        }
        this.location = location;
        try {
            ClassLoader loader = new URLClassLoader("bench.vs", new URL[] {location.toUri().toURL()},
                    ClassLoader.getPlatformClassLoader());
            importer = Class.forName("org.jfrworkbench.importer.Importer", true, loader);
            read = importer.getMethod("read", Path.class);
            Class<?> profile = Class.forName("org.jfrworkbench.model.Profile", true, loader);
            Class<?> kind = Class.forName("org.jfrworkbench.model.Kind", true, loader);
            samples = profile.getMethod("samples", kind);
            sourceEvents = profile.getMethod("sourceEvents");
            stacks = profile.getMethod("stacks");
            kinds = kind.getEnumConstants();
            if ("false".equals(System.getProperty("workbench.importer.onlyWhenIdle"))) {
                secondThreadEvenWhenBusy(loader);
            }
        } catch (ReflectiveOperationException e) {
            throw new IOException("-Dbench.vs=" + location + ": not an importer build this benchmark can call", e);
        }
    }

    /**
     * What {@code -Dworkbench.importer.onlyWhenIdle=false} does to this build, for a build that does not read the
     * property: its switch is set by hand (in SpareProcessor, or EventDecoder before that class), so that on a machine
     * others load both builds use their second threads.
     */
    private static void secondThreadEvenWhenBusy(ClassLoader loader) throws ReflectiveOperationException {
        for (String name : new String[] {"SpareProcessor", "EventDecoder"}) {
            try {
                Field f = Class.forName("org.jfrworkbench.importer.jfr." + name, true, loader).getDeclaredField("onlyWhenIdle");
                f.setAccessible(true);
                f.setBoolean(null, false);
                return;
            } catch (ClassNotFoundException | NoSuchFieldException e) {
                // an older or newer layout: try the next
            }
        }
    }

    /** Reads the file into the other build's model; describes it as {@link ImportBench#read} describes this build's. */
    String read(Path input) throws IOException {
        try {
            Object p = read.invoke(importer.getConstructor().newInstance(), input);
            long samplesRead = 0;
            for (Object k : kinds) {
                samplesRead += size(samples.invoke(p, k));
            }
            long events = 0;
            for (Object n : ((Map<?, ?>) sourceEvents.invoke(p)).values()) {
                events += (Long) n;
            }
            return events + " events, " + samplesRead + " samples, " + size(stacks.invoke(p)) + " distinct stacks";
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            throw new IllegalStateException("the build in " + location + " failed", e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    /** size() of a model table of the other build (its own class, so called by name). */
    private static long size(Object table) throws ReflectiveOperationException {
        if (table instanceof Collection<?> c) {
            return c.size();
        }
        return ((Number) table.getClass().getMethod("size").invoke(table)).longValue();
    }
}
