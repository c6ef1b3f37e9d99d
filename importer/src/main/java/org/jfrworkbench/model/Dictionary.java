package org.jfrworkbench.model;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A few names addressed by a small id (at most {@link #MAX} of them), such as the thread states and the sources of
 * samples: a sample stores the id in a byte. Id 0 is the empty name, "not recorded".
 */
public final class Dictionary {
    public static final int MAX = 256;

    private final List<String> names = new ArrayList<>(List.of(""));
    private final Map<String, Integer> ids = new HashMap<>(Map.of("", 0));
    private boolean sealed;

    /**
     * The id of name, added when new. A recording with more distinct names than fit a byte (never seen: JFR has a
     * dozen thread states) maps the rest to 0 rather than fail the import.
     */
    public int intern(String name) {
        if (name == null) {
            return 0;
        }
        Integer id = ids.get(name);
        if (id != null) {
            return id;
        }
        if (names.size() == MAX) {
            return 0;
        }
        if (sealed) {
            throw new IllegalStateException("the profile is sealed: no name can be added after import");
        }
        names.add(name);
        ids.put(name, names.size() - 1);
        return names.size() - 1;
    }

    /** The id of name, or -1 when this dictionary does not hold it. */
    public int find(String name) {
        Integer id = ids.get(name);
        return id == null ? -1 : id;
    }

    public String get(int id) {
        return names.get(id);
    }

    public int size() {
        return names.size();
    }

    public List<String> names() {
        return Collections.unmodifiableList(names);
    }

    void seal() {
        sealed = true;
    }
}
