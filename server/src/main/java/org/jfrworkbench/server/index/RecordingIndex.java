package org.jfrworkbench.server.index;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.core.KeywordAnalyzer;
import org.apache.lucene.analysis.miscellaneous.PerFieldAnalyzerWrapper;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.NoMergePolicy;
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
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.LockObtainFailedException;
import org.jfrworkbench.analysis.BadQueryException;
import org.jfrworkbench.analysis.Parallel;
import org.jfrworkbench.analysis.ProfileData;
import org.jfrworkbench.model.Kind;
import org.jfrworkbench.server.catalog.RecordingInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Lucene index: one document per recording (name, labels, JVM, kinds, times, all its method names) and one
 * per (recording, kind, method) with self/total weight and share. One IndexWriter, a SearcherManager for
 * readers, and explicit commits: nothing is visible after a restart unless {@link #commit} returned.
 */
public final class RecordingIndex implements Closeable {
    static final String DOC = "doc";
    static final String REC = "rec";
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Fewer documents than this are indexed on one thread. */
    private static final int MIN_SPLIT_DOCUMENTS = 2_000;
    private static final Logger LOG = LoggerFactory.getLogger(RecordingIndex.class);

    private final FSDirectory directory;
    private final IndexWriter writer;
    private final SearcherManager searchers;
    private final Analyzer analyzer;

    private RecordingIndex(Path dir) throws IOException {
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
        directory = FSDirectory.open(Files.createDirectories(dir));
        IndexWriterConfig config = new IndexWriterConfig(analyzer).setOpenMode(IndexWriterConfig.OpenMode.CREATE_OR_APPEND)
                .setCommitOnClose(false);
        IndexWriter w = null;
        try {
            w = new IndexWriter(directory, config);
            searchers = new SearcherManager(w, null);
        } catch (IOException | RuntimeException e) {
            if (w != null) {
                w.rollback();
            }
            directory.close();
            throw e;
        }
        writer = w;
    }

    /**
     * Opens the index in dir; one that cannot be read (damaged, or written by an incompatible Lucene) is replaced by
     * an empty one, which the caller fills again from the recordings ({@link #recordingIds()} tells what is missing).
     */
    public static RecordingIndex open(Path dir) throws IOException {
        try {
            RecordingIndex index = new RecordingIndex(dir);
            try {
                index.recordingIds(); // reads every recording document: a damaged segment shows here, not at a query
                return index;
            } catch (IOException | RuntimeException e) {
                index.close();
                throw e;
            }
        } catch (LockObtainFailedException e) {
            throw e; // another process has it open: never take it from under it
        } catch (IOException | RuntimeException e) {
            LOG.warn("the index in {} cannot be read ({}); it is rebuilt from the recordings", dir, e.toString());
            try (Stream<Path> files = Files.list(dir)) {
                for (Path f : files.toList()) {
                    Files.delete(f);
                }
            }
            return new RecordingIndex(dir);
        }
    }

    /**
     * A recording's documents indexed on their own, in memory: the analysis and the postings, most of the cost of
     * indexing a recording with tens of thousands of methods, are done, so {@link #add(Entry)} only copies a segment.
     * This lets the work run while the recording is being stored, before it may become visible.
     */
    public static final class Entry {
        private final String id;
        final Directory segment;

        private Entry(String id, Directory segment) {
            this.id = id;
            this.segment = segment;
        }
    }

    /** Indexes a recording's documents apart from this index (see {@link Entry}); nothing here changes. */
    public Entry entry(RecordingInfo info, ProfileData data) throws IOException {
        return entry(info, data, Parallel.WHEN_SPARE);
    }

    /**
     * The same, the documents' second half offered to a helper thread by the given rule: Lucene indexes from two
     * threads at once into a segment each, and the analysis and postings of tens of thousands of method documents are
     * the largest part of preparing an upload. Tests give "always" and "never" to check that both index alike.
     */
    Entry entry(RecordingInfo info, ProfileData data, Parallel parallel) throws IOException {
        List<Document> docs = RecordingDocuments.of(info, data);
        Directory segment = new ByteBuffersDirectory();
        // a segment per thread: a buffer large enough for every document, no merging, no compound file to build
        IndexWriterConfig config = new IndexWriterConfig(analyzer).setRAMBufferSizeMB(256).setUseCompoundFile(false)
                .setMergePolicy(NoMergePolicy.INSTANCE);
        try (IndexWriter w = new IndexWriter(segment, config)) {
            int half = docs.size() / 2;
            // a handful of documents is not worth a hand-over
            boolean split = docs.size() >= MIN_SPLIT_DOCUMENTS && parallel.offers();
            Parallel.both(() -> add(w, docs.subList(0, half)), () -> add(w, docs.subList(half, docs.size())), split);
            w.commit();
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        return new Entry(info.id(), segment);
    }

    private static Void add(IndexWriter w, List<Document> docs) {
        try {
            w.addDocuments(docs);
            return null;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Adds (or replaces) a recording prepared by {@link #entry}: visible to searches after {@link #refresh}, durable
     * after {@link #commit}.
     */
    public void add(Entry entry) throws IOException {
        writer.deleteDocuments(new Term(REC, entry.id));
        writer.addIndexes(entry.segment);
    }

    /** Adds (or replaces) a recording and its method documents, as {@link #add(Entry)} does. */
    public void add(RecordingInfo info, ProfileData data) throws IOException {
        writer.updateDocuments(new Term(REC, info.id()), RecordingDocuments.of(info, data));
    }

    public void delete(String id) throws IOException {
        writer.deleteDocuments(new Term(REC, id));
    }

    /** Makes every change so far durable, then visible to new searches. */
    public void commit() throws IOException {
        writer.commit();
        searchers.maybeRefreshBlocking();
    }

    /**
     * Makes every change so far visible to new searches without making it durable: cheap (no fsync), for an index
     * that can be rebuilt from what it indexes.
     */
    public void refresh() throws IOException {
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

    /**
     * The version (updatedMillis) of each recording as indexed, by id: a run indexed before its last part's metadata
     * was committed is older than its meta.json and is indexed again on start.
     */
    public java.util.Map<String, Long> recordingVersions() throws IOException {
        searchers.maybeRefreshBlocking();
        IndexSearcher s = searchers.acquire();
        try {
            java.util.Map<String, Long> versions = new java.util.LinkedHashMap<>();
            TopDocs top = s.search(new TermQuery(new Term(DOC, "recording")), Math.max(1, s.getIndexReader().maxDoc()));
            for (ScoreDoc sd : top.scoreDocs) {
                org.apache.lucene.document.Document d = s.storedFields().document(sd.doc);
                long version = -1;
                try {
                    version = JSON.readValue(d.get("meta"), RecordingInfo.class).updatedMillis();
                } catch (IOException | RuntimeException e) {
                    // unreadable: indexed again
                }
                versions.put(d.get("id"), version);
            }
            return versions;
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
        QueryGuard.checkText(q);
        MultiFieldQueryParser parser = new MultiFieldQueryParser(fields, analyzer);
        parser.setSplitOnWhitespace(true);
        parser.setAutoGeneratePhraseQueries(true);
        parser.setDefaultOperator(QueryParser.Operator.AND);
        parser.setDeterminizeWorkLimit(QueryGuard.DETERMINIZE_WORK_LIMIT);
        Query query;
        try {
            query = parser.parse(q);
        } catch (ParseException | RuntimeException | StackOverflowError e) {
            throw new BadQueryException("cannot parse query '" + QueryGuard.clip(q) + "': " + firstLine(e.getMessage()));
        }
        QueryGuard.checkParsed(query);
        return query;
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
