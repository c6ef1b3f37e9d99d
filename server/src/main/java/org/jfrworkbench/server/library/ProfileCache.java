package org.jfrworkbench.server.library;

import java.lang.ref.WeakReference;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.jfrworkbench.analysis.ProfileData;

/**
 * Least-recently-used loaded profiles within a byte budget (the most recent one always stays). A profile evicted
 * while a request still uses it is found again as long as it is in memory: decoding a second copy of it, as uploads
 * evicted a large profile under the views still reading it, filled a small heap with copies of one recording.
 */
final class ProfileCache extends ByteBudgetCache<String, ProfileData> {
    private final Map<String, WeakReference<ProfileData>> inMemory = new ConcurrentHashMap<>();

    ProfileCache(long budget) {
        super(budget, ProfileData::approximateBytes);
    }

    @Override
    public synchronized ProfileData get(String id) {
        ProfileData data = super.get(id);
        if (data == null) {
            WeakReference<ProfileData> ref = inMemory.get(id);
            data = ref == null ? null : ref.get();
            if (data != null) {
                super.put(id, data); // in use anyway: counting it again costs no memory and keeps the budget true
            } else if (ref != null) {
                inMemory.remove(id, ref);
            }
        }
        return data;
    }

    @Override
    public synchronized void put(String id, ProfileData data) {
        super.put(id, data);
        inMemory.values().removeIf(ref -> ref.get() == null);
        inMemory.put(id, new WeakReference<>(data));
    }

    @Override
    public synchronized void remove(String id) {
        super.remove(id);
        inMemory.remove(id);
    }
}
