package org.jfrworkbench.server.store;

import java.util.LinkedHashMap;
import java.util.Map;

import org.jfrworkbench.server.query.ProfileData;

/** Least-recently-used loaded profiles within a byte budget (the most recent one always stays). */
final class ProfileCache {
    private final long budget;
    private long used;
    private final LinkedHashMap<String, ProfileData> entries = new LinkedHashMap<>(16, 0.75f, true);

    ProfileCache(long budget) {
        this.budget = budget;
    }

    synchronized ProfileData get(String id) {
        return entries.get(id);
    }

    synchronized void put(String id, ProfileData data) {
        ProfileData old = entries.put(id, data);
        if (old != null) {
            used -= old.approximateBytes();
        }
        used += data.approximateBytes();
        var it = entries.entrySet().iterator();
        while (used > budget && entries.size() > 1 && it.hasNext()) {
            Map.Entry<String, ProfileData> e = it.next();
            if (e.getKey().equals(id)) {
                continue;
            }
            used -= e.getValue().approximateBytes();
            it.remove();
        }
    }

    synchronized void remove(String id) {
        ProfileData old = entries.remove(id);
        if (old != null) {
            used -= old.approximateBytes();
        }
    }
}
