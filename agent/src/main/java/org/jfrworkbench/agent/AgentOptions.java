package org.jfrworkbench.agent;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Parsed agent options: a comma-separated list of {@code key=value} (or bare flags), for example
 * {@code dir=/var/jfr,interval=60s,cpu=10ms,alloc=512k,live=true,label.service=checkout}.
 */
public record AgentOptions(
        Path dir,
        Duration interval,
        Engine engine,
        Duration cpuInterval,
        Duration wallInterval,
        long allocBytes,
        boolean live,
        Duration lockThreshold,
        URI upload,
        String token,
        long spoolMaxBytes,
        Duration nmtInterval,
        Map<String, String> labels) {

    public enum Engine { AUTO, ASYNC, JFR }

    public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(60);

    /** Thrown for an option the agent cannot understand; the agent then logs it and does not start. */
    public static final class InvalidOptionException extends IllegalArgumentException {
        InvalidOptionException(String message) {
            super(message);
        }
    }

    public static AgentOptions parse(String text) {
        Path dir = null;
        Duration interval = DEFAULT_INTERVAL;
        Engine engine = Engine.AUTO;
        Duration cpu = Duration.ofMillis(10);
        Duration wall = null;
        long alloc = 512 * 1024;
        boolean live = true;
        Duration lock = null;
        URI upload = null;
        String token = null;
        long spoolMax = 256L * 1024 * 1024;
        Duration nmt = Duration.ofSeconds(10);
        Map<String, String> labels = new LinkedHashMap<>();
        if (text != null && !text.isBlank()) {
            for (String part : text.split(",")) {
                String item = part.trim();
                if (item.isEmpty()) {
                    continue;
                }
                int eq = item.indexOf('=');
                String key = (eq < 0 ? item : item.substring(0, eq)).trim().toLowerCase(Locale.ROOT);
                String value = eq < 0 ? "" : item.substring(eq + 1).trim();
                if (key.startsWith("label.")) {
                    String name = item.substring(6, eq < 0 ? item.length() : eq).trim();
                    if (name.isEmpty()) {
                        throw new InvalidOptionException("empty label name in '" + item + "'");
                    }
                    labels.put(name, value);
                    continue;
                }
                switch (key) {
                    case "dir" -> dir = Path.of(require(key, value));
                    case "interval" -> interval = positive(key, duration(key, value));
                    case "engine" -> engine = engine(value);
                    case "cpu" -> cpu = isOff(value) ? null : positive(key, duration(key, value));
                    case "wall" -> wall = isOff(value) ? null : positive(key, duration(key, value));
                    case "alloc" -> alloc = isOff(value) ? 0 : bytes(key, value);
                    case "live" -> live = bool(key, value);
                    case "lock" -> lock = isOff(value) ? null : duration(key, value);
                    case "upload" -> upload = uri(value);
                    case "token" -> token = require(key, value);
                    case "spool-max" -> spoolMax = bytes(key, value);
                    case "nmt-interval" -> nmt = positive(key, duration(key, value));
                    default -> throw new InvalidOptionException("unknown option '" + key + "'");
                }
            }
        }
        if (live && alloc == 0) {
            throw new InvalidOptionException("live=true needs allocation sampling (alloc=SIZE)");
        }
        if (dir == null) {
            String service = labels.getOrDefault("service", "app");
            dir = Path.of(System.getProperty("java.io.tmpdir"), "workbench-agent", service + "-" + ProcessHandle.current().pid());
        }
        return new AgentOptions(dir.toAbsolutePath(), interval, engine, cpu, wall, alloc, live, lock, upload, token,
                spoolMax, nmt, Collections.unmodifiableMap(labels));
    }

    private static boolean isOff(String value) {
        return value.equalsIgnoreCase("off") || value.equalsIgnoreCase("false") || value.equals("0");
    }

    private static String require(String key, String value) {
        if (value.isEmpty()) {
            throw new InvalidOptionException("option '" + key + "' needs a value");
        }
        return value;
    }

    private static Engine engine(String value) {
        try {
            return Engine.valueOf(value.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new InvalidOptionException("engine must be auto, async or jfr, not '" + value + "'");
        }
    }

    private static boolean bool(String key, String value) {
        if (value.isEmpty() || value.equalsIgnoreCase("true") || value.equalsIgnoreCase("on")) {
            return true;
        }
        if (isOff(value)) {
            return false;
        }
        throw new InvalidOptionException("option '" + key + "' must be true or false, not '" + value + "'");
    }

    private static URI uri(String value) {
        try {
            URI uri = URI.create(value);
            if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme()) || uri.getHost() == null) {
                throw new InvalidOptionException("upload must be an http(s)://host:port URL, not '" + value + "'");
            }
            return uri;
        } catch (IllegalArgumentException e) {
            throw new InvalidOptionException("upload must be an http(s)://host:port URL, not '" + value + "'");
        }
    }

    /** Durations like {@code 10ms}, {@code 60s}, {@code 5m}, {@code 500us}; a bare number means milliseconds. */
    static Duration duration(String key, String value) {
        String v = value.toLowerCase(Locale.ROOT);
        try {
            if (v.endsWith("ms")) {
                return Duration.ofMillis(Long.parseLong(v.substring(0, v.length() - 2)));
            } else if (v.endsWith("us")) {
                return Duration.ofNanos(Long.parseLong(v.substring(0, v.length() - 2)) * 1000);
            } else if (v.endsWith("ns")) {
                return Duration.ofNanos(Long.parseLong(v.substring(0, v.length() - 2)));
            } else if (v.endsWith("s")) {
                return Duration.ofSeconds(Long.parseLong(v.substring(0, v.length() - 1)));
            } else if (v.endsWith("m")) {
                return Duration.ofMinutes(Long.parseLong(v.substring(0, v.length() - 1)));
            } else if (v.endsWith("h")) {
                return Duration.ofHours(Long.parseLong(v.substring(0, v.length() - 1)));
            }
            return Duration.ofMillis(Long.parseLong(v));
        } catch (NumberFormatException e) {
            throw new InvalidOptionException("option '" + key + "' needs a duration like 10ms or 60s, not '" + value + "'");
        }
    }

    private static Duration positive(String key, Duration d) {
        if (d.isZero() || d.isNegative()) {
            throw new InvalidOptionException("option '" + key + "' must be positive");
        }
        return d;
    }

    /** Sizes like {@code 512k}, {@code 10m}, {@code 1g}, or plain bytes. */
    static long bytes(String key, String value) {
        String v = value.toLowerCase(Locale.ROOT);
        long unit = 1;
        if (v.endsWith("b")) {
            v = v.substring(0, v.length() - 1);
        }
        if (v.endsWith("k")) {
            unit = 1024;
        } else if (v.endsWith("m")) {
            unit = 1024 * 1024;
        } else if (v.endsWith("g")) {
            unit = 1024L * 1024 * 1024;
        }
        if (unit != 1) {
            v = v.substring(0, v.length() - 1);
        }
        try {
            long n = Long.parseLong(v);
            if (n <= 0 || n > Long.MAX_VALUE / unit) {
                throw new InvalidOptionException("option '" + key + "' must be a positive size, not '" + value + "'");
            }
            return n * unit;
        } catch (NumberFormatException e) {
            throw new InvalidOptionException("option '" + key + "' needs a size like 512k or 100m, not '" + value + "'");
        }
    }
}
