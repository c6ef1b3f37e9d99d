package org.jfrworkbench.importer.jfr;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.jfrworkbench.importer.InvalidRecordingException;

/**
 * All constant pools of one chunk. Checkpoint events form a list linked backwards by delta offsets from the
 * header's constant-pool offset. Stack traces go to {@link StackTraces}; every other pool keeps its entries, resolved
 * lazily (pools may refer to pools read later). A pool whose type has only integral fields and pool keys (methods,
 * classes, packages: tens of thousands of entries) keeps them as rows of one long array, read with {@link #row} and
 * {@link #cell}: resolving a method then reads one row instead of a boxed value per field; other pools keep generic
 * values.
 */
final class ConstantPools implements JfrInput.StringPool {
    private static final long CHECKPOINT_TYPE = 1;

    private ChunkTypes types;
    private final LongIntMap[] keys;
    @SuppressWarnings("unchecked")
    private final List<Object>[] values;
    /** Per type index: the rows of a pool of scalar fields (fields.length longs per entry), else null. */
    private final long[][] rows;
    private final int[] rowCount;
    /** Per type index: whether its entries are kept as rows ({@link #scalarFields}), worked out once per chunk. */
    private boolean[] scalar;
    final StackTraces stackTraces;
    private JfrType stringType;
    /** Where each entry's bytes are stored and checked, or null when the chunk is not compared with others. */
    private PoolHistory history;
    private byte[] chunk;
    /** Whether entries the history already holds with the same bytes are skipped (they are in these pools). */
    private boolean continuing;
    /** Set when, continuing, an entry's bytes differ from the stored entry of the same type and key. */
    private boolean contradicted;
    /**
     * The pools of the chunk before, no longer used: their key maps, rows and value lists are emptied and taken for
     * the pools of the same type here, where each chunk made its own and grew them by copies (the JDK's method keys,
     * above the maps' direct arrays, doubled their tables in every chunk). Null once this chunk's pools are read.
     */
    private ConstantPools spent;

    /** The pools of a chunk; spent: the pools of the chunk before, whose arrays these take (null: none). */
    @SuppressWarnings("unchecked")
    ConstantPools(ChunkTypes types, StackTraces reusable, ConstantPools spent) {
        this.types = types;
        this.spent = spent;
        this.stackTraces = reusable;
        reusable.reset();
        this.keys = new LongIntMap[types.size()];
        this.values = new List[types.size()];
        this.rows = new long[types.size()][];
        this.rowCount = new int[types.size()];
        this.stringType = types.byName("java.lang.String");
        this.scalar = scalarTypes(types);
    }

    /** {@link #scalarFields} of every type: asked per pool entry and per method resolved. */
    private static boolean[] scalarTypes(ChunkTypes types) {
        boolean[] s = new boolean[types.size()];
        for (int i = 0; i < s.length; i++) {
            s[i] = scalarFields(types.get(i));
        }
        return s;
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
        this.scalar = scalarTypes(chunkTypes);
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
                spent = null;
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
            boolean inRows = scalar[t.index];
            if (!stacks && !continuing && inRows) {
                // a count the file states: no more rows than the bytes left can hold (a byte per key and per field)
                reserveRows(t, Math.min(n, in.remaining() / (t.fields.length + 1)));
                keys[t.index].reserve(n);
            }
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
                } else if (inRows) {
                    putRow(t, key, in, reader);
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
            keys[ti] = newKeys(t);
            values[ti] = newValues(t);
        }
        keys[ti].put(key, values[ti].size());
        values[ti].add(value);
    }

    /** Whether t's entries are kept as rows: an object of integral fields and pool keys only. */
    private static boolean scalarFields(JfrType t) {
        if (t.primitive != JfrType.OBJECT) {
            return false;
        }
        for (JfrField f : t.fields) {
            if (f.array || !f.constantPool && f.type.primitive > JfrType.LONG) {
                return false;
            }
        }
        return true;
    }

    /** Room for n more rows of t (its pool's count, read before the entries): the rows are not grown by copies. */
    private void reserveRows(JfrType t, int n) {
        int ti = t.index;
        int fields = Math.max(t.fields.length, 1);
        if (keys[ti] == null) {
            keys[ti] = newKeys(t);
            rows[ti] = newRows(t, fields * 64);
        }
        long need = ((long) rowCount[ti] + n) * fields;
        if (need > rows[ti].length) {
            // at least doubled: the JDK writes a pool in many checkpoints, each reserving its own few entries
            rows[ti] = Arrays.copyOf(rows[ti], (int) Math.min(Integer.MAX_VALUE - 8, Math.max(need, 2L * rows[ti].length)));
        }
    }

    /** Reads an entry of a {@link #scalarFields} type into its pool's rows; each field as {@link ValueReader#scalar}. */
    private void putRow(JfrType t, long key, JfrInput in, ValueReader reader) throws InvalidRecordingException {
        int ti = t.index;
        JfrField[] fields = t.fields;
        int n = fields.length;
        if (keys[ti] == null) {
            keys[ti] = newKeys(t);
            rows[ti] = newRows(t, Math.max(n, 1) * 64);
        }
        int row = rowCount[ti];
        long[] r = rows[ti];
        if ((row + 1L) * n > r.length) {
            r = rows[ti] = Arrays.copyOf(r, (int) Math.min(Integer.MAX_VALUE - 8, Math.max((row + 1L) * n, 2L * r.length)));
        }
        int base = row * n;
        for (int i = 0; i < n; i++) {
            r[base + i] = reader.scalar(fields[i]);
        }
        keys[ti].put(key, row);
        rowCount[ti] = row + 1;
    }

    /** The index of t's type among the spent pools' types, or -1 (no spent pools, or no such type there). */
    private int spentIndex(JfrType t) {
        if (spent == null) {
            return -1;
        }
        if (spent.types == types) {
            return t.index;
        }
        JfrType s = spent.types.byName(t.name);
        return s == null ? -1 : s.index;
    }

    /** An empty key map for t's pool: the spent pools' one of its type, emptied, or a new one. */
    private LongIntMap newKeys(JfrType t) {
        int j = spentIndex(t);
        LongIntMap k = j < 0 ? null : spent.keys[j];
        if (k == null) {
            return new LongIntMap();
        }
        spent.keys[j] = null;
        k.clear();
        return k;
    }

    /** Rows for t's pool of at least length longs: the spent pools' rows of its type when long enough, or new ones. */
    private long[] newRows(JfrType t, int length) {
        int j = spentIndex(t);
        long[] r = j < 0 ? null : spent.rows[j];
        if (r == null || r.length < length) {
            return new long[length];
        }
        spent.rows[j] = null;
        return r;
    }

    /** An empty value list for t's pool: the spent pools' one of its type, emptied, or a new one. */
    private List<Object> newValues(JfrType t) {
        int j = spentIndex(t);
        List<Object> v = j < 0 ? null : spent.values[j];
        if (v == null) {
            return new ArrayList<>();
        }
        spent.values[j] = null;
        v.clear();
        return v;
    }

    /** The number of rows of t's pool (0 for a type not kept in rows). */
    int rowCount(JfrType t) {
        return rows[t.index] == null ? 0 : rowCount[t.index];
    }

    /** The row of the entry of type t with this key, or -1; only for a type kept in rows (see {@link #hasRows}). */
    int row(JfrType t, long key) {
        LongIntMap k = keys[t.index];
        return k == null ? -1 : k.get(key);
    }

    /** Whether t's entries are read with {@link #row} and {@link #cell} (always so for a type of scalar fields). */
    boolean hasRows(JfrType t) {
        return scalar[t.index];
    }

    /** Field i of a {@link #row}: a pool key or an integral value, as {@link ValueReader#scalar} reads it. */
    long cell(JfrType t, int row, int i) {
        return rows[t.index][row * t.fields.length + i];
    }

    /** The pool entry of type t with this key, or null. A row comes as the generic value: one Long per field. */
    Object get(JfrType t, long key) {
        LongIntMap k = keys[t.index];
        if (k == null) {
            return null;
        }
        int i = k.get(key);
        if (i < 0) {
            return null;
        }
        return rows[t.index] != null ? rowValue(t, i) : values[t.index].get(i);
    }

    private Object[] rowValue(JfrType t, int row) {
        Object[] v = new Object[t.fields.length];
        for (int i = 0; i < v.length; i++) {
            v[i] = cell(t, row, i);
        }
        return v;
    }

    /** Every entry of type t's pool (empty when the chunk has none), in key order of reading. */
    List<Object> values(JfrType t) {
        if (t != null && rows[t.index] != null) {
            List<Object> v = new ArrayList<>(rowCount[t.index]);
            for (int i = 0; i < rowCount[t.index]; i++) {
                v.add(rowValue(t, i));
            }
            return v;
        }
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

    /**
     * {@code text(field(t, get(t, key), i), 0)} without making the entry's generic value when t's pool is kept in
     * rows: the text of a pool reference (a class's name symbol, say), else null.
     */
    String fieldText(JfrType t, long key, int i) {
        if (!hasRows(t)) {
            return text(field(t, get(t, key), i), 0);
        }
        int row = row(t, key);
        if (row < 0 || i < 0 || i >= t.fields.length) {
            return null;
        }
        JfrField f = t.fields[i];
        return f.constantPool ? text(get(f.type, cell(t, row, i)), 0) : null;
    }

    /** The type of field name in t, or null. */
    static JfrType fieldType(JfrType t, String name) {
        int i = t == null ? -1 : t.field(name);
        return i < 0 ? null : t.fields[i].type;
    }
}
