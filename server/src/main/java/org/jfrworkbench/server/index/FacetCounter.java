package org.jfrworkbench.server.index;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.SortedSetDocValues;
import org.apache.lucene.search.CollectorManager;
import org.apache.lucene.search.Scorable;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.SimpleCollector;

/** Counts the values of sorted-set doc-value fields over all matching documents (facets without a taxonomy). */
final class FacetCounter implements CollectorManager<FacetCounter.Leaf, FacetCounter.Result> {
    private final List<String> fields;

    FacetCounter(List<String> fields) {
        this.fields = fields;
    }

    record Result(long hits, Map<String, Map<String, Long>> counts) {
    }

    @Override
    public Leaf newCollector() {
        return new Leaf();
    }

    @Override
    public Result reduce(Collection<Leaf> collectors) {
        Map<String, Map<String, Long>> counts = new TreeMap<>();
        for (String f : fields) {
            counts.put(f, new TreeMap<>());
        }
        long hits = 0;
        for (Leaf c : collectors) {
            hits += c.hits;
            c.counts.forEach((f, m) -> m.forEach((v, n) -> counts.get(f).merge(v, n, Long::sum)));
        }
        return new Result(hits, counts);
    }

    final class Leaf extends SimpleCollector {
        long hits;
        final Map<String, Map<String, Long>> counts = new TreeMap<>();
        private final List<SortedSetDocValues> values = new ArrayList<>();

        @Override
        protected void doSetNextReader(LeafReaderContext context) throws IOException {
            values.clear();
            for (String f : fields) {
                values.add(DocValues.getSortedSet(context.reader(), f));
            }
        }

        @Override
        public void collect(int doc) throws IOException {
            hits++;
            for (int i = 0; i < fields.size(); i++) {
                SortedSetDocValues dv = values.get(i);
                if (dv.advanceExact(doc)) {
                    Map<String, Long> m = counts.computeIfAbsent(fields.get(i), k -> new TreeMap<>());
                    for (int k = 0, n = dv.docValueCount(); k < n; k++) {
                        m.merge(dv.lookupOrd(dv.nextOrd()).utf8ToString(), 1L, Long::sum);
                    }
                }
            }
        }

        @Override
        public void setScorer(Scorable scorer) {
        }

        @Override
        public ScoreMode scoreMode() {
            return ScoreMode.COMPLETE_NO_SCORES;
        }
    }
}
