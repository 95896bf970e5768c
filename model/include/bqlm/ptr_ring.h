/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlmodel - include/linux/ptr_ring.h (Linux 6.12, plus the
 * __ptr_ring_check_produce() helper of 43be21ec2efd) as a model.
 *
 * The ring's slots are shared variables (memory words @base .. @base +
 * @size - 1, see <bqlm/memory_model.h>): the producer and the consumer
 * read and write them
 * under different locks, so every slot access goes through the CPU's view
 * of memory (<bqlm/memory_model.h>). The indices are private to the side
 * that owns them (producer under producer_lock, consumer_head and
 * consumer_tail under consumer_lock), as in the kernel, and are plain
 * fields here. An entry is a small non-zero number (a packet id); 0 is
 * NULL.
 *
 * Only the lock-free "__" functions are modelled; the model that uses the
 * ring takes and releases the locks as steps of its own (a ring has no
 * lock state here, see struct bqlm_tun_queue).
 */
#ifndef _BQLM_PTR_RING_H
#define _BQLM_PTR_RING_H

#include <bqlm/types.h>
#include <bqlm/memory_model.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Largest ring the explorer's configurations use, and the largest
 * bqlm_ptr_ring_resize() takes (it keeps the surviving entries on the
 * stack; bqlm___ptr_ring_swap_queue() takes any ring the model holds).
 */
#define BQLM_PTR_RING_MAX	4
/* Largest ring the model holds at all (the timing simulator's rings). */
#define BQLM_PTR_RING_LIMIT	4096

/**
 * struct bqlm_ptr_ring - the private part of struct ptr_ring
 * @producer: next slot to produce into (producer_lock)
 * @consumer_head: next slot to consume (consumer_lock)
 * @consumer_tail: first consumed slot not yet zeroed (consumer_lock)
 * @size: slots, 0..BQLM_PTR_RING_LIMIT
 * @batch: slots zeroed at once by the consumer (__ptr_ring_set_size())
 * @base: index of slot 0 in memory; the owner of the memory reserves the
 *	words @base .. @base + @size - 1 (and as many as a resize may grow to)
 */
struct bqlm_ptr_ring {
	unsigned short producer;
	unsigned short consumer_head;
	unsigned short consumer_tail;
	unsigned short size;
	unsigned short batch;
	unsigned short base;
};

/*
 * SMP_CACHE_BYTES * 2 / sizeof(void *) on x86-64, the batch
 * __ptr_ring_set_size() starts from.
 */
#define BQLM_PTR_RING_BATCH	16

void bqlm___ptr_ring_set_size(struct bqlm_ptr_ring *r, unsigned int size,
			      unsigned int batch);
void bqlm_ptr_ring_init(struct bqlm_ptr_ring *r, unsigned int base,
			unsigned int size, unsigned int batch);
int bqlm___ptr_ring_check_produce(const struct bqlm_ptr_ring *r,
				  const struct bqlm_mm_cpu *c);
bool bqlm___ptr_ring_full(const struct bqlm_ptr_ring *r,
			  const struct bqlm_mm_cpu *c);
int bqlm___ptr_ring_produce(struct bqlm_ptr_ring *r,
			    const struct bqlm_mm_cpu *c, unsigned int ptr);
unsigned int bqlm___ptr_ring_peek(const struct bqlm_ptr_ring *r,
				  const struct bqlm_mm_cpu *c);
bool bqlm___ptr_ring_empty(const struct bqlm_ptr_ring *r,
			   const struct bqlm_mm_cpu *c);
void bqlm___ptr_ring_discard_one(struct bqlm_ptr_ring *r,
				 const struct bqlm_mm_cpu *c);
unsigned int bqlm___ptr_ring_consume(struct bqlm_ptr_ring *r,
				     const struct bqlm_mm_cpu *c);
int bqlm___ptr_ring_consume_batched(struct bqlm_ptr_ring *r,
				    const struct bqlm_mm_cpu *c,
				    unsigned int *array, int n);
int bqlm___ptr_ring_swap_queue(struct bqlm_ptr_ring *r,
			       const struct bqlm_mm_cpu *c,
			       unsigned int *queue, unsigned int size,
			       unsigned int batch, unsigned int *destroyed,
			       int max_destroyed);
int bqlm_ptr_ring_resize(struct bqlm_ptr_ring *r, const struct bqlm_mm_cpu *c,
			 unsigned int size, unsigned int batch,
			 unsigned int *destroyed, int max_destroyed);
int bqlm_ptr_ring_purge(struct bqlm_ptr_ring *r, const struct bqlm_mm_cpu *c,
			unsigned int *freed, int max_freed);
unsigned int bqlm_ptr_ring_count(const struct bqlm_ptr_ring *r,
				 const unsigned short *mem);

#ifdef __cplusplus
}
#endif

#endif /* _BQLM_PTR_RING_H */
