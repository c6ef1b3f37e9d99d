package org.jfrworkbench.server.http;

import java.util.LinkedHashMap;
import java.util.Map;

import org.jfrworkbench.analysis.BadQueryException;

/** Parses the {@code k=v,k=v} label syntax of uploads and the CLI. */
public final class Labels {
    private Labels() {
    }

    public static Map<String, String> parse(String text) {
        Map<String, String> out = new LinkedHashMap<>();
        if (text == null || text.isBlank()) {
            return out;
        }
        for (String part : text.split(",")) {
            if (part.isBlank()) {
                continue;
            }
            int eq = part.indexOf('=');
            if (eq <= 0) {
                throw new BadQueryException("labels must look like k=v,k=v; '" + part.trim() + "' has no key");
            }
            String key = part.substring(0, eq).trim();
            if (!key.matches("[A-Za-z0-9_.\\-]{1,64}")) {
                throw new BadQueryException("label key '" + key + "' must be 1-64 letters, digits, '_', '.' or '-'");
            }
            String value = part.substring(eq + 1).trim();
            if (value.length() > 256) {
                throw new BadQueryException("label '" + key + "' is longer than 256 characters");
            }
            out.put(key, value);
        }
        if (out.size() > 64) {
            throw new BadQueryException("at most 64 labels");
        }
        return out;
    }
}
