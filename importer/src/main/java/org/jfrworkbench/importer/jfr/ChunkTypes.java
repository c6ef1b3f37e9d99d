package org.jfrworkbench.importer.jfr;

import java.util.List;

/** The types one chunk's metadata declares, by id and by name. Ids are only meaningful within the chunk. */
final class ChunkTypes {
    private final JfrType[] types;
    private final LongIntMap byId;

    ChunkTypes(List<JfrType> list) {
        types = list.toArray(new JfrType[0]);
        byId = new LongIntMap(types.length);
        for (int i = 0; i < types.length; i++) {
            types[i].index = i;
            byId.put(types[i].id, i);
        }
    }

    JfrType byId(long id) {
        int i = byId.get(id);
        return i < 0 ? null : types[i];
    }

    JfrType byName(String name) {
        for (JfrType t : types) {
            if (t.name.equals(name)) {
                return t;
            }
        }
        return null;
    }

    int size() {
        return types.length;
    }

    JfrType get(int index) {
        return types[index];
    }
}
