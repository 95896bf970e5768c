// SPDX-License-Identifier: GPL-2.0
/*
 * bqlmodel - model of include/linux/ptr_ring.h (see <bqlm/ptr_ring.h>).
 *
 * Every slot access is a load or store through the calling CPU's view of
 * memory, in the order the kernel makes them, so that a weak memory model
 * sees the same accesses as the hardware would.
 */
#include "bqlm_internal.h"
#include <bqlm/ptr_ring.h>

/**
 * bqlm___ptr_ring_set_size() - set the size and the consumer's batch
 * @r: the ring
 * @size: slots, at most BQLM_PTR_RING_LIMIT (more is capped)
 * @batch: the batch to start from (BQLM_PTR_RING_BATCH as the kernel)
 *
 * As __ptr_ring_set_size(): a batch above half the ring, or 0, becomes 1.
 */
void bqlm___ptr_ring_set_size(struct bqlm_ptr_ring *r, unsigned int size,
			      unsigned int batch)
{
	r->size = min_t(unsigned int, size, BQLM_PTR_RING_LIMIT);
	r->batch = min_t(unsigned int, batch, BQLM_PTR_RING_LIMIT);
	if (r->batch > r->size / 2 || !r->batch)
		r->batch = 1;
}

/**
 * bqlm_ptr_ring_init() - ptr_ring_init() on slots @base.. of a memory
 * @r: the ring
 * @base: index of slot 0 in memory, at most USHRT_MAX - @size
 * @size: slots
 * @batch: see bqlm___ptr_ring_set_size()
 *
 * The slots themselves must be zero (the caller zeroed the memory).
 */
void bqlm_ptr_ring_init(struct bqlm_ptr_ring *r, unsigned int base,
			unsigned int size, unsigned int batch)
{
	memset(r, 0, sizeof(*r));
	r->base = base;
	bqlm___ptr_ring_set_size(r, size, batch);
}

/**
 * bqlm___ptr_ring_check_produce() - is there room for one entry?
 * @r: the ring (producer_lock held)
 * @c: the producer's view
 *
 * Reads the slot at the producer index, as __ptr_ring_check_produce().
 *
 * Return: 0 if the slot is free, -ENOSPC if it is taken or the ring has
 * no slot at all.
 */
int bqlm___ptr_ring_check_produce(const struct bqlm_ptr_ring *r,
				  const struct bqlm_mm_cpu *c)
{
	if (!r->size || bqlm_mm_load(c, r->base + r->producer))
		return -ENOSPC;
	return 0;
}

/**
 * bqlm___ptr_ring_full() - __ptr_ring_full(): the producer's slot is taken
 * @r: the ring (producer_lock held)
 * @c: the producer's view
 *
 * Return: true if the next produce would fail (a ring of size 0 is not
 * full in the kernel's sense: it has no slot to look at).
 */
bool bqlm___ptr_ring_full(const struct bqlm_ptr_ring *r,
			  const struct bqlm_mm_cpu *c)
{
	return r->size && bqlm_mm_load(c, r->base + r->producer);
}

/**
 * bqlm___ptr_ring_produce() - store one entry
 * @r: the ring (producer_lock held)
 * @c: the producer's view
 * @ptr: the entry, not 0
 *
 * The kernel's smp_wmb() before the slot store orders the skb's contents
 * (not modelled) before the pointer; it does not order the slot store
 * against later loads, so it is no step here.
 *
 * Return: 0, or -ENOSPC when the producer's slot is taken.
 */
int bqlm___ptr_ring_produce(struct bqlm_ptr_ring *r,
			    const struct bqlm_mm_cpu *c, unsigned int ptr)
{
	if (bqlm___ptr_ring_check_produce(r, c))
		return -ENOSPC;
	bqlm_mm_store(c, r->base + r->producer, ptr);
	if (++r->producer >= r->size)
		r->producer = 0;
	return 0;
}

/**
 * bqlm___ptr_ring_peek() - the entry at the consumer head
 * @r: the ring (consumer_lock held)
 * @c: the consumer's view
 *
 * Return: the entry, or 0 when the ring is (or looks) empty.
 */
unsigned int bqlm___ptr_ring_peek(const struct bqlm_ptr_ring *r,
				  const struct bqlm_mm_cpu *c)
{
	if (!r->size)
		return 0;
	return bqlm_mm_load(c, r->base + r->consumer_head);
}

/**
 * bqlm___ptr_ring_empty() - __ptr_ring_empty()
 * @r: the ring (consumer_lock held)
 * @c: the consumer's view
 *
 * Return: true if no entry is at the consumer head.
 */
bool bqlm___ptr_ring_empty(const struct bqlm_ptr_ring *r,
			   const struct bqlm_mm_cpu *c)
{
	return !bqlm___ptr_ring_peek(r, c);
}

/**
 * bqlm___ptr_ring_discard_one() - retire the entry at the consumer head
 * @r: the ring (consumer_lock held)
 * @c: the consumer's view
 *
 * As __ptr_ring_discard_one(): the head advances; the retired slots are
 * zeroed (in reverse order) only once a batch of them has been consumed,
 * or at the end of the ring. Until then the producer still sees them
 * taken.
 */
void bqlm___ptr_ring_discard_one(struct bqlm_ptr_ring *r,
				 const struct bqlm_mm_cpu *c)
{
	int consumer_head = r->consumer_head;
	int head = consumer_head++;

	if (consumer_head - r->consumer_tail >= r->batch ||
	    consumer_head >= r->size) {
		while (head >= r->consumer_tail)
			bqlm_mm_store(c, r->base + head--, 0);
		r->consumer_tail = consumer_head;
	}
	if (consumer_head >= r->size) {
		consumer_head = 0;
		r->consumer_tail = 0;
	}
	r->consumer_head = consumer_head;
}

/**
 * bqlm___ptr_ring_consume() - take the entry at the consumer head
 * @r: the ring (consumer_lock held)
 * @c: the consumer's view
 *
 * Return: the entry, or 0 if the ring looked empty.
 */
unsigned int bqlm___ptr_ring_consume(struct bqlm_ptr_ring *r,
				     const struct bqlm_mm_cpu *c)
{
	unsigned int ptr = bqlm___ptr_ring_peek(r, c);

	if (ptr)
		bqlm___ptr_ring_discard_one(r, c);
	return ptr;
}

/**
 * bqlm___ptr_ring_consume_batched() - take up to @n entries
 * @r: the ring (consumer_lock held)
 * @c: the consumer's view
 * @array: receives the entries
 * @n: room in @array
 *
 * Return: the number of entries taken.
 */
int bqlm___ptr_ring_consume_batched(struct bqlm_ptr_ring *r,
				    const struct bqlm_mm_cpu *c,
				    unsigned int *array, int n)
{
	unsigned int ptr;
	int i;

	for (i = 0; i < n; i++) {
		ptr = bqlm___ptr_ring_consume(r, c);
		if (!ptr)
			break;
		array[i] = ptr;
	}
	return i;
}

/**
 * bqlm___ptr_ring_swap_queue() - __ptr_ring_swap_queue() with both locks
 *	held: move every entry into a new queue
 * @r: the ring
 * @c: the resizing CPU's view
 * @queue: the new queue: room for @size entries (the array the kernel
 *	allocates); receives the entries that survive, oldest first
 * @size: the new size, at most BQLM_PTR_RING_LIMIT; the memory words from
 *	@r->base on must hold that many slots
 * @batch: see bqlm___ptr_ring_set_size()
 * @destroyed: receives the entries that did not fit, oldest first (the
 *	kernel passes them to its destroy callback, tun_ptr_free() for tun)
 * @max_destroyed: room in @destroyed
 *
 * Every entry is consumed from the old ring (with the consumer's batched
 * zeroing, as the kernel does) and put into @queue from slot 0; those
 * beyond @size are destroyed; the indices restart, the producer after the
 * last survivor (0 when the new ring is full). The new queue then takes
 * the place of the old one in the same memory words (the kernel swaps in
 * the new array: nobody can see the difference, since both locks are held
 * and every earlier store under them has drained): every slot of the old
 * and of the new ring is rewritten, in order.
 *
 * Return: the number of entries destroyed, -ENOSPC when @destroyed is too
 * small (the ring is left half consumed), or -EINVAL (nothing changed)
 * when @size is above BQLM_PTR_RING_LIMIT.
 */
int bqlm___ptr_ring_swap_queue(struct bqlm_ptr_ring *r,
			       const struct bqlm_mm_cpu *c,
			       unsigned int *queue, unsigned int size,
			       unsigned int batch, unsigned int *destroyed,
			       int max_destroyed)
{
	unsigned int ptr, i, n = 0, slots = max_t(unsigned int, size, r->size);
	int nd = 0;

	if (size > BQLM_PTR_RING_LIMIT)
		return -EINVAL;
	while ((ptr = bqlm___ptr_ring_consume(r, c))) {
		if (n < size) {
			queue[n++] = ptr;
		} else {
			if (nd >= max_destroyed)
				return -ENOSPC;
			destroyed[nd++] = ptr;
		}
	}
	for (i = 0; i < slots; i++)
		bqlm_mm_store(c, r->base + i, i < n ? queue[i] : 0);
	bqlm___ptr_ring_set_size(r, size, batch);
	r->producer = n >= size ? 0 : n;
	r->consumer_head = 0;
	r->consumer_tail = 0;
	return nd;
}

/**
 * bqlm_ptr_ring_resize() - ptr_ring_resize() with both locks held
 * @r: the ring
 * @c: the resizing CPU's view
 * @size: the new size, at most BQLM_PTR_RING_MAX; the memory words from
 *	@r->base on must hold that many slots
 * @batch: see bqlm___ptr_ring_set_size()
 * @destroyed: receives the entries that did not fit (the kernel frees
 *	them with tun_ptr_free())
 * @max_destroyed: room in @destroyed
 *
 * The new queue the kernel allocates is an array on the stack here, hence
 * the explorer's bound; bqlm___ptr_ring_swap_queue() with a queue of the
 * caller's takes any size.
 *
 * Return: the number of entries destroyed, -ENOSPC when @destroyed is too
 * small, or -EINVAL (nothing changed) when @size is above
 * BQLM_PTR_RING_MAX.
 */
int bqlm_ptr_ring_resize(struct bqlm_ptr_ring *r, const struct bqlm_mm_cpu *c,
			 unsigned int size, unsigned int batch,
			 unsigned int *destroyed, int max_destroyed)
{
	unsigned int queue[BQLM_PTR_RING_MAX];

	if (size > BQLM_PTR_RING_MAX)
		return -EINVAL;
	return bqlm___ptr_ring_swap_queue(r, c, queue, size, batch, destroyed,
					  max_destroyed);
}

/**
 * bqlm_ptr_ring_purge() - consume every entry (tun_queue_purge())
 * @r: the ring (consumer_lock taken by the caller)
 * @c: the purging CPU's view
 * @freed: receives the entries
 * @max_freed: room in @freed
 *
 * Return: the number of entries freed, or -ENOSPC when @freed is too
 * small.
 */
int bqlm_ptr_ring_purge(struct bqlm_ptr_ring *r, const struct bqlm_mm_cpu *c,
			unsigned int *freed, int max_freed)
{
	unsigned int ptr;
	int n = 0;

	while ((ptr = bqlm___ptr_ring_consume(r, c))) {
		if (n >= max_freed)
			return -ENOSPC;
		freed[n++] = ptr;
	}
	return n;
}

/**
 * bqlm_ptr_ring_count() - entries between the consumer head and the
 *	producer, as memory holds them (model only)
 * @r: the ring
 * @mem: memory, the values of the shared variables (with every buffer
 *	drained, the truth)
 *
 * Counts the non-zero slots from the consumer head on, up to the first
 * zero one or the retired slots the consumer has not zeroed yet.
 *
 * Return: the number of entries a consumer would get.
 */
unsigned int bqlm_ptr_ring_count(const struct bqlm_ptr_ring *r,
				 const unsigned short *mem)
{
	unsigned int i, n = 0, s = r->consumer_head;
	/* retired slots not yet zeroed are not entries */
	unsigned int room = r->size - (r->consumer_head - r->consumer_tail);

	for (i = 0; i < room; i++) {
		if (!mem[r->base + s])
			break;
		n++;
		if (++s >= r->size)
			s = 0;
	}
	return n;
}
