package org.jfrworkbench.importer.jfr;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.jfrworkbench.importer.InvalidRecordingException;

/**
 * All constant pools of one chunk. Checkpoint events form a list linked backwards by delta offsets from the
 * header's constant-pool offset. Stack traces go to {@link StackTraces}; every other pool keeps its entries as
 * generic values, resolved lazily (pools may refer to pools read later).
 */
final class ConstantPools implements JfrInput.StringPool {
    private static final long CHECKPOINT_TYPE = 1;

    private ChunkTypes types;
    private final LongIntMap[] keys;
    @SuppressWarnings("unchecked")
    private final List<Object>[] values;
    final StackTraces stackTraces;
    private JfrType stringType;
    /** Where each entry's bytes are stored and checked, or null when the chunk is not compared with others. */
    private PoolHistory history;
    private byte[] chunk;
    /** Whether entries the history already holds with the same bytes are skipped (they are in these pools). */
    private boolean continuing;
    /** Set when, continuing, an entry's bytes differ from the stored entry of the same type and key. */
    private boolean contradicted;

    @SuppressWarnings("unchecked")
    ConstantPools(ChunkTypes types, StackTraces reusable) {
        this.types = types;
        this.stackTraces = reusable;
        reusable.reset();
        this.keys = new LongIntMap[types.size()];
        this.values = new List[types.size()];
        this.stringType = types.byName("java.lang.String");
    }

    /**
     * Compares the next read with the history: every entry is stored there; with continuing, entries the history
     * holds with the same bytes are skipped, because these pools (kept from the previous chunk) already hold them.
     */
    void track(PoolHistory history, byte[] chunk, boolean continuing) {
        this.history = history;
        this.chunk = chunk;
        this.continuing = continuing;
        this.contradicted = false;
    }

    /** Reuses these pools for a following chunk whose metadata is identical (same type indices). */
    void continueWith(ChunkTypes chunkTypes) {
        this.types = chunkTypes;
        this.stringType = chunkTypes.byName("java.lang.String");
    }

    /**
     * Reads every checkpoint event reachable from firstOffset (chunk-relative). False when continuing and an entry
     * contradicts the history: the caller then reads the chunk again into fresh pools.
     */
    boolean read(JfrInput in, ValueReader reader, long firstOffset) throws InvalidRecordingException {
        Set<Long> visited = new HashSet<>();
        long offset = firstOffset;
        while (true) {
            if (offset < 68 || offset >= in.limit()) {
                throw new InvalidRecordingException(in.fileOffset((int) Math.max(0, Math.min(offset, in.limit()))),
                        "constant pool offset " + offset + " outside the chunk");
            }
            if (!visited.add(offset)) {
                throw new InvalidRecordingException(in.fileOffset((int) offset), "constant pools form a cycle");
            }
            in.pos = (int) offset;
            long delta = readCheckpoint(in, reader);
            if (contradicted) {
                return false;
            }
            if (delta == 0) {
                return true;
            }
            offset += delta;
        }
    }

    private long readCheckpoint(JfrInput in, ValueReader reader) throws InvalidRecordingException {
        int start = in.pos;
        int size = in.readInt();
        if (size <= 0 || size > in.limit() - start) {
            throw new InvalidRecordingException(in.fileOffset(start), "checkpoint size " + size + " does not fit the chunk");
        }
        long type = in.readLong();
        if (type != CHECKPOINT_TYPE) {
            throw in.error("expected a constant-pool event (type 1), found type " + type);
        }
        reader.budget(size);
        in.readLong(); // start time
        in.readLong(); // duration
        long delta = in.readLong();
        in.u1(); // checkpoint kind / flush flag
        int poolCount = in.readCount("constant pool");
        for (int p = 0; p < poolCount; p++) {
            long typeId = in.readLong();
            JfrType t = types.byId(typeId);
            if (t == null) {
                throw in.error("constant pool of undeclared type id " + typeId);
            }
            int n = in.readCount("constant");
            boolean stacks = t.name.equals("jdk.types.StackTrace");
            for (int i = 0; i < n; i++) {
                long key = in.readLong();
                int entryStart = in.pos;
                if (continuing) {
                    int known = history.find(t.index, key);
                    if (known >= 0) {
                        if (!history.sameBytes(known, chunk, entryStart, in.limit())) {
                            contradicted = true;
                            return 0;
                        }
                        in.pos = entryStart + history.length(known);
                        continue;
                    }
                }
                if (stacks) {
                    stackTraces.read(in, reader, key, t);
                } else {
                    put(t, key, reader.value(t, 0));
                }
                if (history != null) {
                    history.record(t.index, key, chunk, entryStart, in.pos);
                }
            }
        }
        if (in.pos > start + size) {
            throw new InvalidRecordingException(in.fileOffset(start), "checkpoint event overruns its size " + size);
        }
        return delta;
    }

    private void put(JfrType t, long key, Object value) {
        int ti = t.index;
        if (keys[ti] == null) {
            keys[ti] = new LongIntMap();
            values[ti] = new ArrayList<>();
        }
        keys[ti].put(key, values[ti].size());
        values[ti].add(value);
    }

    /** The pool entry of type t with this key, or null. */
    Object get(JfrType t, long key) {
        LongIntMap k = keys[t.index];
        if (k == null) {
            return null;
        }
        int i = k.get(key);
        return i < 0 ? null : values[t.index].get(i);
    }

    /** Every entry of type t's pool (empty when the chunk has none), in key order of reading. */
    List<Object> values(JfrType t) {
        List<Object> v = t == null ? null : values[t.index];
        return v == null ? List.of() : v;
    }

    @Override
    public Object string(long key) {
        return stringType == null ? null : text(get(stringType, key), 0);
    }

    /** A value as text: strings, pool string references, and single-string records such as Symbol. */
    String text(Object v, int depth) {
        if (v instanceof String s) {
            return s;
        }
        if (v instanceof JfrInput.StringRef ref) {
            return depth > 4 || stringType == null ? null : text(get(stringType, ref.key()), depth + 1);
        }
        if (v instanceof Object[] record && record.length > 0) {
            for (Object o : record) {
                if (o instanceof String || o instanceof JfrInput.StringRef) {
                    return text(o, depth + 1);
                }
            }
        }
        return null;
    }

    /** Follows a field of a record: dereferences constant-pool fields; null when absent. */
    Object field(JfrType t, Object record, String name) {
        return field(t, record, t.field(name));
    }

    /** Follows field i of a record (its position found once by the caller). */
    Object field(JfrType t, Object record, int i) {
        if (!(record instanceof Object[] values)) {
            return null;
        }
        if (i < 0 || i >= values.length) {
            return null;
        }
        JfrField f = t.fields[i];
        Object v = values[i];
        if (f.constantPool && !f.array && v instanceof Long key) {
            return get(f.type, key);
        }
        return v;
    }

    /** The type of field name in t, or null. */
    static JfrType fieldType(JfrType t, String name) {
        int i = t == null ? -1 : t.field(name);
        return i < 0 ? null : t.fields[i].type;
    }
}
