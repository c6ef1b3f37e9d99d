package org.jfrworkbench.model;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Interned strings addressed by a dense int id. Id 0 is always the empty string. */
public final class StringTable {
    private final Map<String, Integer> ids = new HashMap<>();
    private final List<String> values = new ArrayList<>();

    public StringTable() {
        intern("");
    }

    public int intern(String s) {
        if (s == null) {
            return 0;
        }
        Integer id = ids.get(s);
        if (id != null) {
            return id;
        }
        int next = values.size();
        values.add(s);
        ids.put(s, next);
        return next;
    }

    public String get(int id) {
        return values.get(id);
    }

    /** The id of s, or -1 when it was never interned. */
    public int find(String s) {
        Integer id = ids.get(s);
        return id == null ? -1 : id;
    }

    public int size() {
        return values.size();
    }
}
