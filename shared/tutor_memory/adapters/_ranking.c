/* The embedded index's two inner loops, one call each: BM25 summed over a question's postings
 * with the best `limit` kept, and the best `k` of the cosines kept, each returned as the hits'
 * columns (episode ids, seqs, scores and, for BM25, each hit's matched terms).
 *
 * Why C: at 1,000 episodes the numpy form of this step is some thirty numpy calls (weights,
 * sums, bits, the k-th value, the ties, the sort, the gathers), each ~1 µs of call overhead on
 * a few hundred numbers: the index step measured 1.9x a plain numpy + bm25s script (README,
 * performance). Here each BM25 weight is computed operation for operation as the numpy form
 * computes it (`tf * idf * (k1 + 1) / (length_part[norm] + tf)`, summed term by term in the
 * question's order) and the file is compiled with -ffp-contract=off, so the doubles are the
 * same bit for bit. The numpy form stays in embedded_index.py: the reference the tests compare
 * this with, and what runs where this was not built.
 *
 * Order: the higher score first, then the higher seq (the newer episode), then the lower
 * position (numpy's stable sort); a NaN score as -infinity. The best are found without
 * sorting them all: a sample of the scores gives a floor most scores fall under (one
 * comparison each), the rest are selected, and only the best are sorted.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Past this many numbers a call lets other threads run; below it, taking the interpreter back
 * could cost more than the work (a turn reads its concept pool on another thread meanwhile). */
#define LET_GO 65536
#define SAMPLE 128
#define MERGED 8 /* up to this many terms, their postings are merged (no per-document sums) */
#define BIG_SAMPLE 1024 /* from 64 x BIG_SAMPLE numbers: a closer floor */

typedef struct {
    double key; /* the score, a NaN as -infinity */
    double score;
    int64_t seq;
    Py_ssize_t pos;
    int64_t code;
} Cand;

static inline double rank_key(double score) { return isnan(score) ? -INFINITY : score; }

/* Does a rank before b? */
static inline int before(const Cand *a, const Cand *b) {
    if (a->key != b->key) return a->key > b->key;
    if (a->seq != b->seq) return a->seq > b->seq;
    return a->pos < b->pos;
}

static inline void swap(Cand *a, Cand *b) {
    Cand t = *a;
    *a = *b;
    *b = t;
}

static void insertion_sort(Cand *it, Py_ssize_t n) {
    for (Py_ssize_t i = 1; i < n; i++) {
        Cand c = it[i];
        Py_ssize_t j = i;
        for (; j > 0 && before(&c, &it[j - 1]); j--) it[j] = it[j - 1];
        it[j] = c;
    }
}

/* Hoare's partition of it[0..n) around the median of three (n >= 3): returns j such that
 * nothing in it[j + 1..n) ranks before anything in it[0..j]. */
static Py_ssize_t partition(Cand *it, Py_ssize_t n) {
    Py_ssize_t mid = n / 2;
    if (before(&it[mid], &it[0])) swap(&it[mid], &it[0]);
    if (before(&it[n - 1], &it[0])) swap(&it[n - 1], &it[0]);
    if (before(&it[n - 1], &it[mid])) swap(&it[n - 1], &it[mid]);
    Cand pivot = it[mid];
    Py_ssize_t i = -1, j = n;
    for (;;) {
        do i++; while (before(&it[i], &pivot));
        do j--; while (before(&pivot, &it[j]));
        if (i >= j) return j;
        swap(&it[i], &it[j]);
    }
}

/* The best k of it[0..n) first, in any order. */
static void select_best(Cand *it, Py_ssize_t n, Py_ssize_t k) {
    while (n > 16) {
        Py_ssize_t split = partition(it, n) + 1;
        if (k <= split) {
            n = split;
        } else {
            it += split;
            n -= split;
            k -= split;
        }
    }
    insertion_sort(it, n);
}

/* The r-th largest (from 0) of a[0..n), a reordered. */
static double nth_largest(double *a, Py_ssize_t n, Py_ssize_t r) {
    Py_ssize_t lo = 0, hi = n - 1;
    while (lo < hi) {
        double pivot = a[lo + (hi - lo) / 2];
        Py_ssize_t i = lo, j = hi;
        while (i <= j) {
            while (a[i] > pivot) i++;
            while (a[j] < pivot) j--;
            if (i <= j) {
                double t = a[i];
                a[i++] = a[j];
                a[j--] = t;
            }
        }
        if (r <= j) hi = j;
        else if (r >= i) lo = i;
        else return a[r];
    }
    return a[r];
}

/* A key that at least k of the m keys reach, most likely, and few more: from an even sample
 * (its rank for 1.5k expected, and two more). -infinity (take all) when k is a large share
 * of m. The caller takes all when fewer than k reach it: the floor only saves work. */
static double floor_of(const float *f32, const double *f64, Py_ssize_t m, Py_ssize_t k) {
    if (k <= 0 || m <= 4 * k || m < 2 * SAMPLE) return -INFINITY;
    double s[BIG_SAMPLE];
    Py_ssize_t size = m >= 64 * BIG_SAMPLE ? BIG_SAMPLE : SAMPLE;
    for (Py_ssize_t i = 0; i < size; i++) {
        Py_ssize_t at = i * m / size;
        s[i] = rank_key(f32 ? (double)f32[at] : f64[at]);
    }
    Py_ssize_t r = (Py_ssize_t)((double)size * 1.5 * (double)k / (double)m) + 2;
    return r >= size ? -INFINITY : nth_largest(s, size, r);
}

/* An unsigned key that orders as `before` orders scores: higher first (-0.0 as 0.0). */
static inline uint64_t radix_key(double key) {
    if (key == 0) key = 0.0;
    uint64_t bits;
    memcpy(&bits, &key, sizeof bits);
    bits = (bits >> 63) ? ~bits : bits | 0x8000000000000000ULL; /* ascending with the key */
    return ~bits;
}

/* A stable least-significant-byte radix sort of keys[0..n), ascending, carrying order; the
 * spare arrays are the passes' other halves (swapped with the sorted ones as it goes). The
 * counts of every byte come from one read of the keys; bytes all the keys share are skipped. */
static void radix_sort(uint64_t **keys, uint32_t **order, uint64_t **spare_keys,
                       uint32_t **spare_order, Py_ssize_t n) {
    uint32_t count[8][256];
    memset(count, 0, sizeof count);
    uint64_t all_or = 0, all_and = ~0ULL;
    const uint64_t *kf = *keys;
    for (Py_ssize_t i = 0; i < n; i++) {
        uint64_t key = kf[i];
        all_or |= key;
        all_and &= key;
        for (int b = 0; b < 8; b++) count[b][(key >> (8 * b)) & 0xff]++;
    }
    for (int b = 0; b < 8; b++) {
        int shift = 8 * b;
        if ((((all_or ^ all_and) >> shift) & 0xff) == 0) continue; /* one value: no pass */
        uint32_t *c = count[b], total = 0;
        for (int v = 0; v < 256; v++) {
            uint32_t here = c[v];
            c[v] = total;
            total += here;
        }
        kf = *keys;
        const uint32_t *of = *order;
        uint64_t *kt = *spare_keys;
        uint32_t *ot = *spare_order;
        for (Py_ssize_t i = 0; i < n; i++) {
            uint32_t at = c[(kf[i] >> shift) & 0xff]++;
            kt[at] = kf[i];
            ot[at] = of[i];
        }
        *spare_keys = *keys;
        *keys = kt;
        *spare_order = *order;
        *order = ot;
    }
}

/* it[0..n) best first: a radix sort by seq (newer first), then a stable one by score
 * (higher first); equal score and seq (never two episodes of one pair) by position. Why not
 * a comparison sort: at 200 hits its branches, each a coin toss, cost more than the radix
 * passes, and a history has long runs of equal BM25 scores. Returns -1 out of memory. */
static int sort_all(Cand *it, Py_ssize_t n) {
    if (n < 32) {
        insertion_sort(it, n);
        return 0;
    }
    uint64_t *keys = malloc((size_t)n * 2 * sizeof(uint64_t));
    uint32_t *order = malloc((size_t)n * 2 * sizeof(uint32_t));
    Cand *sorted = malloc((size_t)n * sizeof(Cand));
    if (!keys || !order || !sorted) {
        free(keys);
        free(order);
        free(sorted);
        return -1;
    }
    uint64_t *k = keys, *spare_k = keys + n;
    uint32_t *o = order, *spare_o = order + n;
    for (Py_ssize_t i = 0; i < n; i++) {
        k[i] = ~((uint64_t)it[i].seq ^ 0x8000000000000000ULL); /* higher seq first */
        o[i] = (uint32_t)i;
    }
    radix_sort(&k, &o, &spare_k, &spare_o, n);
    for (Py_ssize_t i = 0; i < n; i++) k[i] = radix_key(it[o[i]].key);
    radix_sort(&k, &o, &spare_k, &spare_o, n);
    for (Py_ssize_t i = 0; i < n; i++) sorted[i] = it[o[i]];
    for (Py_ssize_t i = 0; i < n;) {
        Py_ssize_t j = i + 1;
        while (j < n && k[j] == k[i] && sorted[j].seq == sorted[i].seq) j++;
        if (j - i > 1) insertion_sort(sorted + i, j - i);
        i = j;
    }
    memcpy(it, sorted, (size_t)n * sizeof(Cand));
    free(keys);
    free(order);
    free(sorted);
    return 0;
}

/* Candidates gathered in a growing array. */
typedef struct {
    Cand *items;
    Py_ssize_t size, room;
    int failed;
} Pool;

static inline void add(Pool *p, double key, double score, int64_t seq, Py_ssize_t pos,
                       int64_t code) {
    if (p->size == p->room) {
        Py_ssize_t room = p->room ? 2 * p->room : 256;
        Cand *grown = realloc(p->items, (size_t)room * sizeof(Cand));
        if (!grown) {
            p->failed = 1;
            return;
        }
        p->items = grown;
        p->room = room;
    }
    Cand c = {key, score, seq, pos, code};
    p->items[p->size++] = c;
}

/* The pool's best k, best first, in its first min(k, size) items; -1 out of memory. */
static int best_of(Pool *p, Py_ssize_t k) {
    if (p->failed) return -1;
    if (p->size > k) {
        select_best(p->items, p->size, k);
        p->size = k;
    }
    return sort_all(p->items, p->size);
}

/* The names (a tuple, sorted) of the bits set in `code`. */
static PyObject *names_of(PyObject *names, int64_t code) {
    Py_ssize_t count = 0;
    for (int64_t c = code; c; c &= c - 1) count++;
    PyObject *out = PyTuple_New(count);
    if (!out) return NULL;
    for (Py_ssize_t b = 0, i = 0; i < count; b++) {
        if (code >> b & 1) {
            PyObject *name = PyTuple_GET_ITEM(names, b);
            Py_INCREF(name);
            PyTuple_SET_ITEM(out, i++, name);
        }
    }
    return out;
}

/* Each hit's matched terms: one tuple per distinct set (made once, shared). */
static PyObject *matched_of(const Pool *p, PyObject *names) {
    Py_ssize_t n = p->size;
    PyObject *out = PyList_New(n), *made[256] = {NULL};
    PyObject *seen = PyTuple_GET_SIZE(names) > 8 ? PyDict_New() : NULL;
    if (!out || (PyTuple_GET_SIZE(names) > 8 && !seen)) goto fail;
    for (Py_ssize_t i = 0; i < n; i++) {
        int64_t code = p->items[i].code;
        PyObject *tuple;
        if (code <= 0 || code >> PyTuple_GET_SIZE(names)) { /* never from bits zeroed before */
            PyErr_SetString(PyExc_ValueError, "a document's term bits name no term: the bits "
                            "were not all zero before the call");
            goto fail;
        }
        if (!seen) {
            if (!made[code] && !(made[code] = names_of(names, code))) goto fail;
            tuple = made[code];
            Py_INCREF(tuple);
        } else {
            PyObject *key = PyLong_FromLongLong(code);
            if (!key) goto fail;
            tuple = PyDict_GetItemWithError(seen, key);
            if (tuple) {
                Py_INCREF(tuple);
            } else if (PyErr_Occurred() || !(tuple = names_of(names, code)) ||
                       PyDict_SetItem(seen, key, tuple) < 0) {
                Py_XDECREF(tuple);
                Py_DECREF(key);
                goto fail;
            }
            Py_DECREF(key);
        }
        PyList_SET_ITEM(out, i, tuple);
    }
    for (int c = 0; c < 256; c++) Py_XDECREF(made[c]);
    Py_XDECREF(seen);
    return out;
fail:
    for (int c = 0; c < 256; c++) Py_XDECREF(made[c]);
    Py_XDECREF(seen);
    Py_XDECREF(out);
    return NULL;
}

/* The hits' columns of the pool's items: (ids, seqs, scores, matched terms or None). With
 * one name every hit holds it (the same tuple each time); with several, each hit's code has
 * bit b set for names[b]. */
static PyObject *columns(const Pool *p, PyObject *ids, Py_ssize_t offset, PyObject *names) {
    Py_ssize_t n = p->size;
    PyObject *out_ids = PyList_New(n), *out_seqs = PyList_New(n), *out_scores = PyList_New(n);
    PyObject *out_codes = NULL;
    if (!names) {
        out_codes = Py_None;
        Py_INCREF(out_codes);
    } else if (PyTuple_GET_SIZE(names) == 1) {
        PyObject *only = PyTuple_GetSlice(names, 0, 1);
        if (only && (out_codes = PyList_New(n)))
            for (Py_ssize_t i = 0; i < n; i++) {
                Py_INCREF(only);
                PyList_SET_ITEM(out_codes, i, only);
            }
        Py_XDECREF(only);
    } else {
        out_codes = matched_of(p, names);
    }
    if (!out_ids || !out_seqs || !out_scores || !out_codes) goto fail;
    for (Py_ssize_t i = 0; i < n; i++) {
        const Cand *c = &p->items[i];
        PyObject *id = PyList_GET_ITEM(ids, offset + c->pos);
        Py_INCREF(id);
        PyList_SET_ITEM(out_ids, i, id);
        PyObject *seq = PyLong_FromLongLong(c->seq), *score = PyFloat_FromDouble(c->score);
        if (!seq || !score) {
            Py_XDECREF(seq);
            Py_XDECREF(score);
            goto fail;
        }
        PyList_SET_ITEM(out_seqs, i, seq);
        PyList_SET_ITEM(out_scores, i, score);
    }
    return Py_BuildValue("(NNNN)", out_ids, out_seqs, out_scores, out_codes);
fail:
    Py_XDECREF(out_ids);
    Py_XDECREF(out_seqs);
    Py_XDECREF(out_scores);
    Py_XDECREF(out_codes);
    return NULL;
}

/* A 1-D C-contiguous buffer of `itemsize`-byte items whose format is one of `formats`. */
static int get_buffer(PyObject *obj, Py_buffer *view, Py_ssize_t itemsize, const char *formats,
                      int writable, const char *what) {
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(obj, view, flags) < 0) return -1;
    const char *f = view->format ? view->format : "B";
    if (*f == '<' || *f == '=' || *f == '@') f++;
    if (view->ndim != 1 || view->itemsize != itemsize || f[0] == '\0' || f[1] != '\0' ||
        !strchr(formats, f[0])) {
        PyBuffer_Release(view);
        PyErr_Format(PyExc_ValueError,
                     "%s: a one-dimensional array of %zd-byte items ('%s') is needed", what,
                     itemsize, formats);
        return -1;
    }
    return 0;
}

static PyObject *semantic_top(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *scores_obj, *seqs_obj, *ids;
    Py_ssize_t offset, k;
    if (!PyArg_ParseTuple(args, "OOO!nn:semantic_top", &scores_obj, &seqs_obj, &PyList_Type,
                          &ids, &offset, &k))
        return NULL;
    Py_buffer sv, qv;
    if (get_buffer(scores_obj, &sv, 4, "f", 0, "scores") < 0) return NULL;
    if (get_buffer(seqs_obj, &qv, 8, "lq", 0, "seqs") < 0) {
        PyBuffer_Release(&sv);
        return NULL;
    }
    Py_ssize_t m = sv.len / 4;
    PyObject *result = NULL;
    Pool pool = {NULL, 0, 0, 0};
    if (offset < 0 || offset + m > qv.len / 8 || offset + m > PyList_GET_SIZE(ids)) {
        PyErr_SetString(PyExc_ValueError, "the scores reach past the seqs or the ids");
        goto done;
    }
    if (k < 0) k = 0;
    const float *scores = sv.buf;
    const int64_t *seqs = (const int64_t *)qv.buf + offset;
    PyThreadState *state = m >= LET_GO ? PyEval_SaveThread() : NULL;
    for (double floor = floor_of(scores, NULL, m, k); k > 0; floor = -INFINITY) {
        pool.size = 0;
        if (floor > -INFINITY) { /* the floor is one of the scores: a float, and no NaN */
            float least = (float)floor;
            for (Py_ssize_t i = 0; i < m; i++)
                if (scores[i] >= least) add(&pool, scores[i], scores[i], seqs[i], i, 0);
        } else {
            for (Py_ssize_t i = 0; i < m; i++)
                add(&pool, rank_key((double)scores[i]), scores[i], seqs[i], i, 0);
        }
        if (pool.size >= k || floor == -INFINITY || pool.failed) break;
    }
    int status = k ? best_of(&pool, k) : (pool.size = 0);
    if (state) PyEval_RestoreThread(state);
    if (status < 0) PyErr_NoMemory();
    else result = columns(&pool, ids, offset, NULL);
done:
    free(pool.items);
    PyBuffer_Release(&sv);
    PyBuffer_Release(&qv);
    return result;
}

typedef struct {
    Py_buffer positions, tfs, norms;
    double idf;
    int64_t bit;
} Term;

static PyObject *lexical_top(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *terms_obj, *names, *part_obj, *seqs_obj, *ats_obj, *window, *ids, *sums_obj,
        *bits_obj;
    double k1p1;
    Py_ssize_t limit;
    if (!PyArg_ParseTuple(args, "OO!OdOOOO!nOO:lexical_top", &terms_obj, &PyTuple_Type, &names,
                          &part_obj, &k1p1, &seqs_obj, &ats_obj, &window, &PyList_Type, &ids,
                          &limit, &sums_obj, &bits_obj))
        return NULL;
    int64_t low = 0, high = 0;
    int windowed = window != Py_None;
    if (windowed && !PyArg_ParseTuple(window, "LL:window", &low, &high)) return NULL;
    PyObject *listed = PySequence_Fast(terms_obj, "terms: a sequence is needed");
    if (!listed) return NULL;
    Py_ssize_t nt = PySequence_Fast_GET_SIZE(listed);
    if (nt > 62 || PyTuple_GET_SIZE(names) != nt) {
        Py_DECREF(listed);
        PyErr_SetString(PyExc_ValueError, "one name per term, and at most 62 terms");
        return NULL;
    }
    Term *terms = PyMem_Calloc((size_t)(nt ? nt : 1), sizeof(Term));
    Py_buffer part = {0}, seqs = {0}, ats = {0}, sums = {0}, bits = {0};
    Pool pool = {NULL, 0, 0, 0};
    double *vals = NULL;
    int64_t *where = NULL, *codes = NULL;
    PyObject *result = NULL;
    if (!terms) {
        PyErr_NoMemory();
        goto done;
    }
    Py_ssize_t postings = 0;
    for (Py_ssize_t i = 0; i < nt; i++) {
        PyObject *p, *t, *nm;
        Term *term = &terms[i];
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(listed, i), "OOOdL:term", &p, &t, &nm,
                              &term->idf, &term->bit) ||
            get_buffer(p, &term->positions, 4, "i", 0, "positions") < 0 ||
            get_buffer(t, &term->tfs, 4, "f", 0, "tfs") < 0 ||
            get_buffer(nm, &term->norms, 1, "B", 0, "norms") < 0)
            goto done;
        Py_ssize_t n = term->positions.len / 4;
        if (term->tfs.len / 4 != n || term->norms.len != n) {
            PyErr_SetString(PyExc_ValueError, "a term's positions, tfs and norms differ in length");
            goto done;
        }
        if (nt > 1 && (term->bit <= 0 || term->bit >= ((int64_t)1 << nt))) {
            PyErr_SetString(PyExc_ValueError, "a term's bit is not one of the names'");
            goto done;
        }
        postings += n;
    }
    if (get_buffer(part_obj, &part, 8, "d", 0, "length_part") < 0 ||
        get_buffer(seqs_obj, &seqs, 8, "lq", 0, "seqs") < 0 ||
        get_buffer(ats_obj, &ats, 8, "lq", 0, "ats") < 0 ||
        get_buffer(sums_obj, &sums, 8, "d", 1, "sums") < 0 ||
        get_buffer(bits_obj, &bits, 8, "lq", 1, "bits") < 0)
        goto done;
    if (part.len / 8 != 256) {
        PyErr_SetString(PyExc_ValueError, "length_part: one value per norm byte (256)");
        goto done;
    }
    /* Every position must index the seqs, times and ids (and, with several terms, the sums
     * and bits): checked before anything is written. */
    Py_ssize_t reach = seqs.len / 8;
    if (ats.len / 8 < reach) reach = ats.len / 8;
    if (PyList_GET_SIZE(ids) < reach) reach = PyList_GET_SIZE(ids);
    if (nt > 1 && sums.len / 8 < reach) reach = sums.len / 8;
    if (nt > 1 && bits.len / 8 < reach) reach = bits.len / 8;
    int ascending = 1; /* each term's positions: the merge needs them in order */
    for (Py_ssize_t i = 0; i < nt; i++) {
        const int32_t *pos = terms[i].positions.buf;
        for (Py_ssize_t j = 0, n = terms[i].positions.len / 4; j < n; j++) {
            if (pos[j] < 0 || pos[j] >= reach) {
                PyErr_SetString(PyExc_ValueError, "a posting's position is out of range");
                goto done;
            }
            if (j && pos[j] <= pos[j - 1]) ascending = 0;
        }
    }
    if (limit < 0) limit = 0;
    vals = malloc((size_t)(postings ? postings : 1) * sizeof(double));
    where = malloc((size_t)(postings ? postings : 1) * sizeof(int64_t));
    codes = malloc((size_t)(postings ? postings : 1) * sizeof(int64_t));
    if (!vals || !where || !codes) {
        PyErr_NoMemory();
        goto done;
    }
    const double *lp = part.buf;
    const int64_t *sq = seqs.buf, *at = ats.buf;
    double *sum = sums.buf;
    int64_t *bit = bits.buf;
    Py_ssize_t m = 0; /* the documents found: their scores, positions and term bits */
    PyThreadState *state = postings >= LET_GO ? PyEval_SaveThread() : NULL;
    if (nt == 1) { /* its documents and their weights as they are (0 + w is w) */
        const int32_t *pos = terms[0].positions.buf;
        const float *tf = terms[0].tfs.buf;
        const double idf = terms[0].idf;
        const uint8_t *norm = terms[0].norms.buf;
        for (Py_ssize_t j = 0, n = terms[0].positions.len / 4; j < n; j++) {
            int64_t p = pos[j];
            if (windowed && (at[p] < low || at[p] >= high)) continue;
            double w = (double)tf[j] * idf;
            w *= k1p1;
            double d = lp[norm[j]];
            d += (double)tf[j];
            w /= d;
            vals[m] = w;
            where[m] = p;
            codes[m++] = 0;
        }
    } else if (nt > 1 && nt <= MERGED && ascending) {
        /* The terms' postings merged by position: each document's weights summed in the
         * question's order of terms (as below), read in order, with nothing written but the
         * found documents (the sums below scatter over the pair's documents). */
        const int32_t *pos[MERGED];
        Py_ssize_t head[MERGED] = {0}, length[MERGED];
        for (Py_ssize_t i = 0; i < nt; i++) {
            pos[i] = terms[i].positions.buf;
            length[i] = terms[i].positions.len / 4;
        }
        for (;;) {
            int64_t p = INT64_MAX;
            for (Py_ssize_t i = 0; i < nt; i++)
                if (head[i] < length[i] && pos[i][head[i]] < p) p = pos[i][head[i]];
            if (p == INT64_MAX) break;
            double total = 0;
            int64_t code = 0;
            for (Py_ssize_t i = 0; i < nt; i++) {
                if (head[i] == length[i] || pos[i][head[i]] != p) continue;
                Py_ssize_t j = head[i]++;
                const float *tf = terms[i].tfs.buf;
                double w = (double)tf[j] * terms[i].idf;
                w *= k1p1;
                double d = lp[((const uint8_t *)terms[i].norms.buf)[j]];
                d += (double)tf[j];
                w /= d;
                total += w;
                code |= terms[i].bit;
            }
            if (windowed && (at[p] < low || at[p] >= high)) continue;
            vals[m] = total;
            where[m] = p;
            codes[m++] = code;
        }
    } else if (nt > 1) {
        for (Py_ssize_t i = 0; i < nt; i++) { /* summed term by term, in the question's order */
            const int32_t *pos = terms[i].positions.buf;
            const float *tf = terms[i].tfs.buf;
            const double idf = terms[i].idf;
            const uint8_t *norm = terms[i].norms.buf;
            int64_t b = terms[i].bit;
            for (Py_ssize_t j = 0, n = terms[i].positions.len / 4; j < n; j++) {
                double w = (double)tf[j] * idf;
                w *= k1p1;
                double d = lp[norm[j]];
                d += (double)tf[j];
                w /= d;
                sum[pos[j]] += w;
                bit[pos[j]] |= b;
            }
        }
        for (Py_ssize_t i = 0; i < nt; i++) { /* each document once, then back to zero */
            const int32_t *pos = terms[i].positions.buf;
            for (Py_ssize_t j = 0, n = terms[i].positions.len / 4; j < n; j++) {
                int64_t p = pos[j];
                if (!bit[p]) continue;
                if (!windowed || (at[p] >= low && at[p] < high)) {
                    vals[m] = sum[p];
                    where[m] = p;
                    codes[m++] = bit[p];
                }
                sum[p] = 0;
                bit[p] = 0;
            }
        }
    }
    for (double floor = floor_of(NULL, vals, m, limit); limit > 0; floor = -INFINITY) {
        pool.size = 0;
        for (Py_ssize_t i = 0; i < m; i++) {
            double key = rank_key(vals[i]);
            if (key >= floor) add(&pool, key, vals[i], sq[where[i]], where[i], codes[i]);
        }
        if (pool.size >= limit || floor == -INFINITY || pool.failed) break;
    }
    int status = limit ? best_of(&pool, limit) : (pool.size = 0);
    if (state) PyEval_RestoreThread(state);
    if (status < 0) PyErr_NoMemory();
    else result = columns(&pool, ids, 0, names);
done:
    for (Py_ssize_t i = 0; terms && i < nt; i++) { /* calloc'd: an unread view's obj is NULL */
        if (terms[i].positions.obj) PyBuffer_Release(&terms[i].positions);
        if (terms[i].tfs.obj) PyBuffer_Release(&terms[i].tfs);
        if (terms[i].norms.obj) PyBuffer_Release(&terms[i].norms);
    }
    if (part.obj) PyBuffer_Release(&part);
    if (seqs.obj) PyBuffer_Release(&seqs);
    if (ats.obj) PyBuffer_Release(&ats);
    if (sums.obj) PyBuffer_Release(&sums);
    if (bits.obj) PyBuffer_Release(&bits);
    free(pool.items);
    free(vals);
    free(where);
    free(codes);
    PyMem_Free(terms);
    Py_DECREF(listed);
    return result;
}

static PyMethodDef methods[] = {
    {"semantic_top", semantic_top, METH_VARARGS,
     "semantic_top(scores, seqs, ids, offset, k) -> (ids, seqs, scores, None): the best k of "
     "float32 scores; seqs[offset + i] and ids[offset + i] belong to scores[i]."},
    {"lexical_top", lexical_top, METH_VARARGS,
     "lexical_top(terms, names, length_part, k1p1, seqs, ats, window, ids, limit, sums, bits) "
     "-> (ids, seqs, scores, matched): BM25 of each document the terms' postings reach, "
     "summed term by term, the best `limit` kept, each with the names of the terms it holds; "
     "terms are (positions, tfs, norms, idf, bit), bit 1 << b standing for names[b]; sums and "
     "bits are zero before and after."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_ranking",
    .m_doc = "The embedded index's BM25 sums and top-k selection in C (see _ranking.c).",
    .m_size = -1,
    .m_methods = methods,
};

PyMODINIT_FUNC PyInit__ranking(void) { return PyModule_Create(&module); }
