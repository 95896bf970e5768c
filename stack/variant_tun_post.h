/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlmodel - the last lines of a tun variant's object, after the variant's
 * tun.c: the only code of the suites that knows its struct tun_file.
 */
#ifndef _BQLM_STACK_VARIANT_TUN_POST_H
#define _BQLM_STACK_VARIANT_TUN_POST_H

static unsigned int bqlm_stack_ring_count(struct file *file)
{
	struct tun_file *tfile = file->private_data;
	struct ptr_ring *r = &tfile->tx_ring;
	unsigned int n;

	/* a snapshot: the slots from the consumer's head to the producer */
	spin_lock_bh(&r->consumer_lock);
	spin_lock(&r->producer_lock);
	if (!r->size || !r->queue[r->consumer_head])
		n = 0;
	else if (r->producer > r->consumer_head)
		n = r->producer - r->consumer_head;
	else
		n = r->size - r->consumer_head + r->producer;
	spin_unlock(&r->producer_lock);
	spin_unlock_bh(&r->consumer_lock);
	return n;
}

static unsigned int bqlm_stack_batch(struct file *file)
{
	struct tun_file *tfile = file->private_data;

	return tfile->tx_ring.batch;
}

const struct bqlm_stack_tun_ops BQLM_STACK_SYM(ops) = {
	.name			= BQLM_STACK_NAME,
#ifdef IFF_BACKPRESSURE
	.iff_backpressure	= IFF_BACKPRESSURE,
#endif
	.open			= tun_chr_open,
	.release		= tun_chr_close,
	.set_iff		= tun_set_iff,
	.read_iter		= tun_chr_read_iter,
	.notifier		= &tun_notifier_block,
	.ring_count		= bqlm_stack_ring_count,
	.batch			= bqlm_stack_batch,
};

#endif /* _BQLM_STACK_VARIANT_TUN_POST_H */
