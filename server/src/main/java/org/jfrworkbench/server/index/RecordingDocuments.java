package org.jfrworkbench.server.index;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.DoubleDocValuesField;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.SortedSetDocValuesField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.util.BytesRef;
import org.jfrworkbench.analysis.MethodStats;
import org.jfrworkbench.analysis.ProfileData;
import org.jfrworkbench.analysis.Selection;
import org.jfrworkbench.model.Kind;
import org.jfrworkbench.server.catalog.RecordingInfo;

/**
 * What the index holds of a recording: one document for the recording (name, labels, JVM, kinds, times, all its
 * method names) and one per (kind, method) with the method's self and total weight and share.
 */
final class RecordingDocuments {
    /** Fields of the recording document that a label of the same name must not shadow. */
    static final Set<String> RESERVED = Set.of(RecordingIndex.DOC, RecordingIndex.REC, "id", "meta", "name", "namepart", "label",
            "labeltext", "jvm", "java", "kind", "mkind", "method", "methodpart", "m", "uploaded", "start", "duration",
            "totalShare");
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Method documents per recording and kind (see {@link #heaviest}). */
    static final int MAX_METHODS_PER_KIND = 10_000;

    private RecordingDocuments() {
    }

    /** The documents of a recording: one for the recording, one per kind and method with its weights. */
    static List<Document> of(RecordingInfo info, ProfileData data) throws IOException {
        List<Document> docs = new ArrayList<>();
        Document d = new Document();
        d.add(new StringField(RecordingIndex.DOC, "recording", Field.Store.NO));
        d.add(new StringField(RecordingIndex.REC, info.id(), Field.Store.NO));
        d.add(new StringField("id", info.id(), Field.Store.YES));
        d.add(new StoredField("meta", JSON.writeValueAsString(info)));
        d.add(new TextField("name", info.name(), Field.Store.NO));
        d.add(new TextField("namepart", info.name(), Field.Store.NO));
        for (Map.Entry<String, String> l : info.labels().entrySet()) {
            String kv = l.getKey() + "=" + l.getValue();
            d.add(new StringField("label", kv, Field.Store.NO));
            d.add(new SortedSetDocValuesField("facet_label", new BytesRef(kv)));
            d.add(new TextField("labeltext", l.getKey() + " " + l.getValue(), Field.Store.NO));
            if (!RESERVED.contains(l.getKey())) {
                d.add(new StringField(l.getKey(), l.getValue(), Field.Store.NO));
            }
        }
        d.add(new TextField("jvm", String.join(" ", info.jvm().getOrDefault("jvmName", ""),
                info.jvm().getOrDefault("jvmVersion", ""), info.jvm().getOrDefault("javaVersion", "")), Field.Store.NO));
        String major = info.javaMajor();
        if (!major.isEmpty()) {
            d.add(new StringField("java", major, Field.Store.NO));
            d.add(new SortedSetDocValuesField("facet_jvm", new BytesRef(major)));
        }
        d.add(new NumericDocValuesField("uploaded", info.uploadedMillis()));
        d.add(new LongPoint("uploaded", info.uploadedMillis()));
        d.add(new LongPoint("start", info.startMillis()));
        d.add(new LongPoint("duration", info.durationMillis()));
        Set<String> allMethods = new LinkedHashSet<>();
        for (String kind : info.kinds().keySet()) {
            d.add(new StringField("kind", kind, Field.Store.NO));
            d.add(new SortedSetDocValuesField("facet_kind", new BytesRef(kind)));
            MethodStats stats = MethodStats.compute(data, Selection.of(Kind.parse(kind)));
            for (int i : heaviest(stats, MAX_METHODS_PER_KIND)) {
                String m = stats.name(i);
                allMethods.add(m);
                Document md = new Document();
                md.add(new StringField(RecordingIndex.DOC, "method", Field.Store.NO));
                md.add(new StringField(RecordingIndex.REC, info.id(), Field.Store.YES));
                md.add(new StringField("mkind", kind, Field.Store.YES));
                md.add(new StoredField("m", m));
                md.add(new TextField("method", m, Field.Store.NO));
                md.add(new TextField("methodpart", m, Field.Store.NO));
                double total = stats.totalWeight() == 0 ? 0 : (double) stats.total()[i] / stats.totalWeight();
                md.add(new StoredField("self", stats.self()[i]));
                md.add(new StoredField("total", stats.total()[i]));
                md.add(new StoredField("selfSamples", stats.selfSamples()[i]));
                md.add(new StoredField("totalSamples", stats.totalSamples()[i]));
                md.add(new StoredField("kindTotal", stats.totalWeight()));
                md.add(new DoubleDocValuesField("totalShare", total));
                docs.add(md);
            }
        }
        for (String m : allMethods) {
            d.add(new TextField("method", m, Field.Store.NO));
            d.add(new TextField("methodpart", m, Field.Store.NO));
        }
        docs.add(0, d);
        return docs;
    }

    /**
     * The methods with samples, heaviest total first, at most max: a recording of a million random frames would
     * otherwise make a million documents in one update (an OutOfMemoryError in Lucene's indexing chain), and a
     * method below the 10,000 heaviest is not what anyone searches recordings for.
     */
    static int[] heaviest(MethodStats stats, int max) {
        int n = 0;
        int[] idx = new int[stats.size()];
        for (int i = 0; i < idx.length; i++) {
            if (stats.totalSamples()[i] != 0) {
                idx[n++] = i;
            }
        }
        if (n <= max) {
            return java.util.Arrays.copyOf(idx, n);
        }
        long[] total = stats.total();
        return java.util.Arrays.stream(idx, 0, n).boxed().sorted((a, b) -> Long.compare(total[b], total[a]))
                .limit(max).mapToInt(Integer::intValue).toArray();
    }
}
