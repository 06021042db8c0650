/* loggp_sort.c: the order LogGOPSim gives the ops that become ready at
 * once on a rank. It sorts them by type (sends, receives, local ops) with
 * C++'s std::sort, which is not stable: equal types end up in the order of
 * the algorithm's swaps. With GCC's library (libstdc++, what LogGOPSim is
 * built with on Linux) that is introsort: median-of-three quicksort
 * partitions down to runs of 16, heapsort below a depth of 2 log2 n, then
 * one insertion sort. This is that algorithm, written for the one key, so
 * that ties break as there: on an alltoall of 16 ranks (30 ops ready at
 * once) a stable order finishes up to 20% later than LogGOPSim. docs/goal.md
 * says more. Runs of 16 or fewer are plain insertion sort, which is stable. */
#include "model/loggp.h"

#define THRESHOLD 16

static int less(const noc_loggp_item_t *a, const noc_loggp_item_t *b)
{
    return a->type < b->type;
}

static void swap(noc_loggp_item_t *a, noc_loggp_item_t *b)
{
    noc_loggp_item_t t = *a;
    *a = *b;
    *b = t;
}

/* ---- heapsort, for a partition that went too deep ---- */
static void push_heap(noc_loggp_item_t *v, size_t hole, size_t top, noc_loggp_item_t x)
{
    size_t parent = hole ? (hole - 1) / 2 : 0;
    while (hole > top && less(&v[parent], &x)) {
        v[hole] = v[parent];
        hole = parent;
        parent = hole ? (hole - 1) / 2 : 0;
    }
    v[hole] = x;
}

static void adjust_heap(noc_loggp_item_t *v, size_t hole, size_t len, noc_loggp_item_t x)
{
    size_t top = hole, child = hole;
    while (len >= 2 && child < (len - 1) / 2) {
        child = 2 * (child + 1);
        if (less(&v[child], &v[child - 1]))
            child--;
        v[hole] = v[child];
        hole = child;
    }
    if ((len & 1) == 0 && len >= 2 && child == (len - 2) / 2) {
        child = 2 * (child + 1);
        v[hole] = v[child - 1];
        hole = child - 1;
    }
    push_heap(v, hole, top, x);
}

static void heap_sort(noc_loggp_item_t *v, size_t n)
{
    if (n < 2)
        return;
    for (size_t parent = (n - 2) / 2;; parent--) { /* make the heap */
        adjust_heap(v, parent, n, v[parent]);
        if (parent == 0)
            break;
    }
    for (size_t last = n; last > 1;) { /* take the top off, one by one */
        last--;
        noc_loggp_item_t x = v[last];
        v[last] = v[0];
        adjust_heap(v, 0, last, x);
    }
}

/* ---- introsort ---- */
static void median_to_first(noc_loggp_item_t *r, noc_loggp_item_t *a, noc_loggp_item_t *b, noc_loggp_item_t *c)
{
    if (less(a, b)) {
        if (less(b, c))
            swap(r, b);
        else if (less(a, c))
            swap(r, c);
        else
            swap(r, a);
    } else if (less(a, c))
        swap(r, a);
    else if (less(b, c))
        swap(r, c);
    else
        swap(r, b);
}

/* Partition [first, last) around the pivot at *pivot (before first): the
 * first element of the right part. */
static noc_loggp_item_t *partition(noc_loggp_item_t *first, noc_loggp_item_t *last, const noc_loggp_item_t *pivot)
{
    for (;;) {
        while (less(first, pivot))
            first++;
        last--;
        while (less(pivot, last))
            last--;
        if (!(first < last))
            return first;
        swap(first, last);
        first++;
    }
}

static void intro_loop(noc_loggp_item_t *first, noc_loggp_item_t *last, int depth)
{
    while (last - first > THRESHOLD) {
        if (depth == 0) {
            heap_sort(first, (size_t)(last - first));
            return;
        }
        depth--;
        noc_loggp_item_t *mid = first + (last - first) / 2;
        median_to_first(first, first + 1, mid, last - 1);
        noc_loggp_item_t *cut = partition(first + 1, last, first);
        intro_loop(cut, last, depth);
        last = cut;
    }
}

/* Insert *at into the sorted run before it, which holds a smaller or equal
 * element somewhere (so no bound check is needed). */
static void linear_insert(noc_loggp_item_t *at)
{
    noc_loggp_item_t x = *at, *next = at - 1;
    while (less(&x, next)) {
        *at = *next;
        at = next--;
    }
    *at = x;
}

static void insertion_sort(noc_loggp_item_t *first, noc_loggp_item_t *last)
{
    if (first == last)
        return;
    for (noc_loggp_item_t *i = first + 1; i != last; i++) {
        if (less(i, first)) {
            noc_loggp_item_t x = *i;
            for (noc_loggp_item_t *j = i; j != first; j--)
                *j = *(j - 1);
            *first = x;
        } else
            linear_insert(i);
    }
}

void noc_loggp_sort(noc_loggp_item_t *v, size_t n)
{
    if (n < 2)
        return;
    int lg = 0;
    for (size_t k = n; k > 1; k >>= 1)
        lg++;
    intro_loop(v, v + n, 2 * lg);
    if (n > THRESHOLD) {
        insertion_sort(v, v + THRESHOLD);
        for (noc_loggp_item_t *i = v + THRESHOLD; i != v + n; i++)
            linear_insert(i);
    } else
        insertion_sort(v, v + n);
}
