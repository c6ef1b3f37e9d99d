package org.jfrworkbench.server.index;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.core.KeywordAnalyzer;
import org.apache.lucene.analysis.miscellaneous.PerFieldAnalyzerWrapper;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.DoubleDocValuesField;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.SortedSetDocValuesField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.queryparser.classic.MultiFieldQueryParser;
import org.apache.lucene.queryparser.classic.ParseException;
import org.apache.lucene.queryparser.classic.QueryParser;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.search.Sort;
import org.apache.lucene.search.SortField;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.BytesRef;
import org.jfrworkbench.analysis.BadQueryException;
import org.jfrworkbench.analysis.MethodStats;
import org.jfrworkbench.analysis.ProfileData;
import org.jfrworkbench.analysis.SampleFilter;
import org.jfrworkbench.model.Kind;
import org.jfrworkbench.server.catalog.RecordingInfo;

/**
 * The Lucene index: one document per recording (name, labels, JVM, kinds, times, all its method names) and one
 * per (recording, kind, method) with self/total weight and share. One IndexWriter, a SearcherManager for
 * readers, and explicit commits: nothing is visible after a restart unless {@link #commit} returned.
 */
public final class RecordingIndex implements Closeable {
    static final String DOC = "doc";
    static final String REC = "rec";
    static final Set<String> RESERVED = Set.of(DOC, REC, "id", "meta", "name", "namepart", "label", "labeltext", "jvm", "java",
            "kind", "mkind", "method", "methodpart", "m", "uploaded", "start", "duration", "totalShare");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final FSDirectory directory;
    private final IndexWriter writer;
    private final SearcherManager searchers;
    private final Analyzer analyzer;

    public RecordingIndex(Path dir) throws IOException {
        Map<String, Analyzer> perField = new HashMap<>();
        perField.put("name", new StandardAnalyzer());
        // file names split at every '-', '.' and '_' too: "checkout-after" finds checkout-after.jfr, whose standard
        // tokens are "checkout" and "after.jfr"
        perField.put("namepart", JavaNameAnalyzer.names());
        perField.put("labeltext", new StandardAnalyzer());
        perField.put("jvm", new StandardAnalyzer());
        perField.put("method", JavaNameAnalyzer.names());
        perField.put("methodpart", JavaNameAnalyzer.parts());
        analyzer = new PerFieldAnalyzerWrapper(new KeywordAnalyzer(), perField);
        directory = FSDirectory.open(dir);
        IndexWriterConfig config = new IndexWriterConfig(analyzer).setOpenMode(IndexWriterConfig.OpenMode.CREATE_OR_APPEND)
                .setCommitOnClose(false);
        writer = new IndexWriter(directory, config);
        searchers = new SearcherManager(writer, null);
    }

    /** Adds (or replaces) a recording and its method documents; visible to searches, durable after commit. */
    public void add(RecordingInfo info, ProfileData data) throws IOException {
        List<Document> docs = new ArrayList<>();
        Document d = new Document();
        d.add(new StringField(DOC, "recording", Field.Store.NO));
        d.add(new StringField(REC, info.id(), Field.Store.NO));
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
            MethodStats stats = MethodStats.compute(data, Kind.parse(kind), SampleFilter.ALL);
            for (int i = 0; i < stats.names().length; i++) {
                if (stats.totalSamples()[i] == 0) {
                    continue;
                }
                String m = stats.names()[i];
                allMethods.add(m);
                Document md = new Document();
                md.add(new StringField(DOC, "method", Field.Store.NO));
                md.add(new StringField(REC, info.id(), Field.Store.YES));
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
        writer.updateDocuments(new Term(REC, info.id()), docs);
    }

    public void delete(String id) throws IOException {
        writer.deleteDocuments(new Term(REC, id));
    }

    /** Makes every change so far durable, then visible to new searches. */
    public void commit() throws IOException {
        writer.commit();
        searchers.maybeRefreshBlocking();
    }

    /** Ids of all recordings in the index (for reconciling with the files on start). */
    public Set<String> recordingIds() throws IOException {
        searchers.maybeRefreshBlocking();
        IndexSearcher s = searchers.acquire();
        try {
            Set<String> ids = new LinkedHashSet<>();
            TopDocs top = s.search(new TermQuery(new Term(DOC, "recording")), Math.max(1, s.getIndexReader().maxDoc()));
            for (ScoreDoc sd : top.scoreDocs) {
                ids.add(s.storedFields().document(sd.doc).get("id"));
            }
            return ids;
        } finally {
            searchers.release(s);
        }
    }

    /** A page of recordings matching q (Lucene syntax; blank = all), newest upload first, with facet counts. */
    public RecordingPage list(String q, int offset, int limit) throws IOException {
        Query query = recordingQuery(q);
        IndexSearcher s = searchers.acquire();
        try {
            FacetCounter.Result facets = s.search(query, new FacetCounter(List.of("facet_label", "facet_jvm", "facet_kind")));
            Sort newest = new Sort(new SortField("uploaded", SortField.Type.LONG, true));
            TopDocs top = s.search(query, Math.max(1, offset + limit), newest);
            List<RecordingInfo> out = new ArrayList<>();
            for (int i = offset; i < Math.min(top.scoreDocs.length, offset + limit); i++) {
                out.add(JSON.readValue(s.storedFields().document(top.scoreDocs[i].doc).get("meta"), RecordingInfo.class));
            }
            Map<String, Map<String, Long>> named = new java.util.LinkedHashMap<>();
            named.put("labels", facets.counts().get("facet_label"));
            named.put("jvm", facets.counts().get("facet_jvm"));
            named.put("kinds", facets.counts().get("facet_kind"));
            return new RecordingPage(out, facets.hits(), named);
        } finally {
            searchers.release(s);
        }
    }

    /** A listing page: recordings, total hits, facet counts per field. */
    public record RecordingPage(List<RecordingInfo> recordings, long total, Map<String, Map<String, Long>> facets) {
    }

    private Query recordingQuery(String q) {
        BooleanQuery.Builder b = new BooleanQuery.Builder()
                .add(new TermQuery(new Term(DOC, "recording")), BooleanClause.Occur.FILTER);
        if (q != null && !q.isBlank()) {
            b.add(parse(q, new String[] {"name", "namepart", "labeltext", "label", "jvm", "java", "kind", "method", "methodpart", "id"}),
                    BooleanClause.Occur.MUST);
        }
        return b.build();
    }

    private Query parse(String q, String[] fields) {
        MultiFieldQueryParser parser = new MultiFieldQueryParser(fields, analyzer);
        parser.setSplitOnWhitespace(true);
        parser.setAutoGeneratePhraseQueries(true);
        parser.setDefaultOperator(QueryParser.Operator.AND);
        try {
            return parser.parse(q);
        } catch (ParseException | RuntimeException e) {
            throw new BadQueryException("cannot parse query '" + q + "': " + firstLine(e.getMessage()));
        }
    }

    /** Methods matching q across recordings, largest total share first. */
    public SearchResult searchMethods(String q, String kind, int limit, Function<String, RecordingInfo> recordings)
            throws IOException {
        if (q == null || q.isBlank()) {
            throw new BadQueryException("q is required, e.g. q=HashMap.resize");
        }
        BooleanQuery.Builder b = new BooleanQuery.Builder()
                .add(new TermQuery(new Term(DOC, "method")), BooleanClause.Occur.FILTER)
                .add(parse(q, new String[] {"method", "methodpart"}), BooleanClause.Occur.MUST);
        if (kind != null && !kind.isBlank()) {
            b.add(new TermQuery(new Term("mkind", Kind.parse(kind).id())), BooleanClause.Occur.FILTER);
        }
        IndexSearcher s = searchers.acquire();
        try {
            TopDocs top = s.search(b.build(), Math.max(1, limit),
                    new Sort(new SortField("totalShare", SortField.Type.DOUBLE, true)));
            List<SearchResult.Hit> hits = new ArrayList<>();
            for (ScoreDoc sd : top.scoreDocs) {
                Document d = s.storedFields().document(sd.doc);
                RecordingInfo info = recordings.apply(d.get(REC));
                if (info == null) {
                    continue;
                }
                long self = d.getField("self").numericValue().longValue();
                long total = d.getField("total").numericValue().longValue();
                long kindTotal = d.getField("kindTotal").numericValue().longValue();
                hits.add(new SearchResult.Hit(new SearchResult.RecordingRef(info.id(), info.name()), d.get("m"),
                        d.get("mkind"), self, total, kindTotal == 0 ? 0 : (double) self / kindTotal,
                        kindTotal == 0 ? 0 : (double) total / kindTotal,
                        d.getField("selfSamples").numericValue().longValue(),
                        d.getField("totalSamples").numericValue().longValue()));
            }
            return new SearchResult(hits, top.totalHits.value());
        } finally {
            searchers.release(s);
        }
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "syntax error";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }

    @Override
    public void close() throws IOException {
        searchers.close();
        writer.rollback(); // uncommitted changes are dropped, exactly as a crash would drop them
        directory.close();
    }
}
