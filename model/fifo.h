/* fifo.h: the flit FIFO of a buffer, as the kernel's routers keep it: slots
 * in a ring of a power-of-two capacity addressed by free-running 16-bit head
 * and tail counters (the idea of Linux's kfifo), with the configured depth
 * kept apart, so that "full" means `depth` flits whatever the ring's size,
 * as in an RTL FIFO of any depth. The counters live with the owner's other
 * registers; these helpers only do the arithmetic. */
#ifndef NOC_FIFO_H
#define NOC_FIFO_H
#include <assert.h>
#include <stdint.h>
#include "model/flit.h"
#ifdef __cplusplus
extern "C" {
#endif

/* Ring capacity for a FIFO of `depth` flits (1 <= depth <= 32768). */
static inline uint32_t noc_fifo_capacity(uint32_t depth)
{
    uint32_t c = 1;
    while (c < depth)
        c <<= 1;
    return c;
}

static inline uint32_t noc_fifo_count(uint16_t head, uint16_t tail)
{
    return (uint16_t)(tail - head);
}

/* Append f to the ring slots (capacity mask + 1); the caller checks that the
 * FIFO is below its depth (credit flow control guarantees it). */
static inline void noc_fifo_push(noc_flit_t *slots, uint32_t mask, uint16_t *tail, const noc_flit_t *f)
{
    slots[*tail & mask] = *f;
    (*tail)++;
}

/* The flit at the front (the FIFO must not be empty). */
static inline noc_flit_t *noc_fifo_front(noc_flit_t *slots, uint32_t mask, uint16_t head)
{
    return &slots[head & mask];
}

static inline void noc_fifo_pop(uint16_t *head, uint16_t tail)
{
    assert(*head != tail);
    (void)tail;
    (*head)++;
}

/* Restart an empty FIFO at slot 0 (both counters to 0). Same contents, same
 * order; an owner that rewinds after every pop that empties the FIFO keeps a
 * FIFO that is seldom more than one flit deep in its first slot, so that a
 * lightly loaded network touches few cache lines. */
static inline void noc_fifo_rewind(uint16_t *head, uint16_t *tail)
{
    if (*head == *tail)
        *head = *tail = 0;
}

#ifdef __cplusplus
}
#endif
#endif
