package org.jfrworkbench.server.library;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;

/** Least-recently-used entries within a byte budget; the entry put last always stays. Thread-safe. */
public class ByteBudgetCache<K, V> {
    private final long budget;
    private final ToLongFunction<V> size;
    private long used;
    private final LinkedHashMap<K, V> entries = new LinkedHashMap<>(16, 0.75f, true);

    /** size: an entry's bytes, counted when it is put (so it must not change while cached). */
    public ByteBudgetCache(long budget, ToLongFunction<V> size) {
        this.budget = budget;
        this.size = size;
    }

    public long budget() {
        return budget;
    }

    public synchronized V get(K key) {
        return entries.get(key);
    }

    public synchronized void put(K key, V value) {
        V old = entries.put(key, value);
        if (old != null) {
            used -= size.applyAsLong(old);
        }
        used += size.applyAsLong(value);
        Iterator<Map.Entry<K, V>> it = entries.entrySet().iterator();
        while (used > budget && entries.size() > 1 && it.hasNext()) {
            Map.Entry<K, V> e = it.next();
            if (e.getKey().equals(key)) {
                continue;
            }
            used -= size.applyAsLong(e.getValue());
            it.remove();
        }
    }

    public synchronized void remove(K key) {
        removeIf(key::equals);
    }

    public synchronized void removeIf(Predicate<K> drop) {
        Iterator<Map.Entry<K, V>> it = entries.entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<K, V> e = it.next();
            if (drop.test(e.getKey())) {
                used -= size.applyAsLong(e.getValue());
                it.remove();
            }
        }
    }
}
