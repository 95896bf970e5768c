// SPDX-License-Identifier: GPL-2.0
/*
 * bqlmodel - a fake virtio device on a fake transport (virtio_dev.h).
 *
 * The driver's rings are packed rings made by virtio_ring.c without the
 * DMA API, so a descriptor's address is a physical one and the rings are
 * in the kernel's memory: the device reads and writes them through
 * phys_to_virt(), as a device model in the hypervisor reads guest memory.
 */
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/irqflags.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/virtio.h>
#include <linux/virtio_config.h>
#include <linux/virtio_ring.h>

#include "virtio_dev.h"

static struct bqlm_vdev *bqlm_vdev_of(struct virtio_device *vdev)
{
	return container_of(vdev, struct bqlm_vdev, vdev);
}

/* The device of a virtqueue, or NULL for one beyond the device's room */
static struct bqlm_vdev *bqlm_vdev_of_vq(struct virtqueue *vq)
{
	return vq->index < BQLM_VDEV_MAX_VQS ? bqlm_vdev_of(vq->vdev) : NULL;
}

/* What the device's user (struct bqlm_vdev_ops) is told, if it asks */
#define bqlm_vdev_tell(d, op, ...) do {					\
	if ((d)->ops && (d)->ops->op)					\
		(d)->ops->op(d, ##__VA_ARGS__);				\
} while (0)

/* ------------------------------------------------------------------ */
/* The device's side of a packed ring */

static u16 bqlm_vdev_flags(const struct bqlm_vdev_vq *q, unsigned int i)
{
	return le16_to_cpu(READ_ONCE(q->desc[i].flags));
}

/* Is the descriptor at @i available for the device with wrap counter @w? */
static bool bqlm_vdev_avail(const struct bqlm_vdev_vq *q, unsigned int i,
			    bool w)
{
	u16 f = bqlm_vdev_flags(q, i);
	bool avail = f & BIT(VRING_PACKED_DESC_F_AVAIL);
	bool used = f & BIT(VRING_PACKED_DESC_F_USED);

	return avail == w && used != w;
}

/* Descriptors of the chain at @i (0: a chain longer than the ring) */
static unsigned int bqlm_vdev_chain(const struct bqlm_vdev_vq *q,
				    unsigned int i)
{
	unsigned int n = 1;

	while (bqlm_vdev_flags(q, i) & VRING_DESC_F_NEXT) {
		i = (i + 1) % q->num;
		if (++n > q->num)
			return 0;
	}
	return n;
}

/* Move a ring position @n descriptors on. */
static void bqlm_vdev_advance(const struct bqlm_vdev_vq *q, unsigned int *i,
			      bool *w, unsigned int n)
{
	*i += n;
	if (*i >= q->num) {
		*i -= q->num;
		*w = !*w;
	}
}

/* The device takes virtqueue @vq's ring from its start (made or reset). */
static void bqlm_vdev_attach(struct bqlm_vdev *d, unsigned int index,
			     struct virtqueue *vq)
{
	struct bqlm_vdev_vq *q = &d->q[index];

	q->vq = vq;
	q->num = virtqueue_get_vring_size(vq);
	q->desc = phys_to_virt(virtqueue_get_desc_addr(vq));
	q->driver = phys_to_virt(virtqueue_get_avail_addr(vq));
	q->next = 0;
	q->wrap = true;
	q->kicked = 0;
	q->used = 0;
	q->live = true;
}

/* The driver notified a virtqueue: count what it made available. */
static bool bqlm_vdev_notify(struct virtqueue *vq)
{
	struct bqlm_vdev *d = bqlm_vdev_of_vq(vq);
	struct bqlm_vdev_vq *q;
	unsigned int i, n = 0, len;
	bool w;

	if (!d)
		return false;
	q = &d->q[vq->index];
	if (!q->live || q->vq != vq)
		return true;
	i = q->next;
	w = q->wrap;
	while (n < q->num && bqlm_vdev_avail(q, i, w)) {
		len = bqlm_vdev_chain(q, i);
		if (!len)
			break;
		bqlm_vdev_advance(q, &i, &w, len);
		n++;
	}
	q->kicked = n;
	bqlm_vdev_tell(d, notify, vq->index);
	return true;
}

/**
 * bqlm_vdev_kicked() - chains the device may use now on a virtqueue
 * @d: the device
 * @index: the virtqueue
 *
 * Return: the chains the driver made available before its last
 * notification that the device has not used yet; 0 for a virtqueue that
 * is absent or reset.
 */
unsigned int bqlm_vdev_kicked(const struct bqlm_vdev *d, unsigned int index)
{
	if (index >= BQLM_VDEV_MAX_VQS || !d->q[index].live)
		return 0;
	return d->q[index].kicked;
}

/**
 * bqlm_vdev_cb_enabled() - does the driver want used-buffer notifications?
 * @d: the device
 * @index: the virtqueue
 *
 * Return: true if the driver's event suppression area of a live virtqueue
 * does not say VRING_PACKED_EVENT_FLAG_DISABLE.
 */
bool bqlm_vdev_cb_enabled(const struct bqlm_vdev *d, unsigned int index)
{
	const struct bqlm_vdev_vq *q;

	if (index >= BQLM_VDEV_MAX_VQS || !d->q[index].live)
		return false;
	q = &d->q[index];
	return le16_to_cpu(READ_ONCE(q->driver->flags)) !=
	       VRING_PACKED_EVENT_FLAG_DISABLE;
}

/**
 * bqlm_vdev_complete() - the device uses the next notified chain
 * @d: the device
 * @index: the virtqueue
 * @addr: receives the address of the chain's first descriptor
 *
 * The chain is marked used in place (in order), with a length of 0, and
 * the used-buffer notification is raised, with interrupts off as a
 * hardware interrupt would run it, if the driver's event suppression
 * allows it.
 *
 * Return: 1 if the notification was raised, 0 if it was suppressed,
 * -EINVAL if there is no notified chain to use, -EIO for a chain longer
 * than the ring.
 */
int bqlm_vdev_complete(struct bqlm_vdev *d, unsigned int index, u64 *addr)
{
	struct bqlm_vdev_vq *q;
	unsigned int head, len;
	unsigned long flags;
	u16 used;

	if (!bqlm_vdev_kicked(d, index))
		return -EINVAL;
	q = &d->q[index];
	head = q->next;
	len = bqlm_vdev_chain(q, head);
	if (!len)
		return -EIO;
	*addr = le64_to_cpu(q->desc[head].addr);
	q->desc[head].len = 0;
	used = q->wrap ? BIT(VRING_PACKED_DESC_F_AVAIL) |
			 BIT(VRING_PACKED_DESC_F_USED) : 0;
	/* the id and length before the flags that publish them */
	smp_wmb();
	WRITE_ONCE(q->desc[head].flags, cpu_to_le16(used));
	bqlm_vdev_advance(q, &q->next, &q->wrap, len);
	q->kicked--;
	q->used++;
	/* the flags before the driver's suppression is read */
	smp_mb();
	if (!bqlm_vdev_cb_enabled(d, index))
		return 0;
	local_irq_save(flags);
	vring_interrupt(0, q->vq);
	local_irq_restore(flags);
	return 1;
}

/* ------------------------------------------------------------------ */
/* The transport */

static void bqlm_vdev_get(struct virtio_device *vdev, unsigned int offset,
			  void *buf, unsigned int len)
{
	struct bqlm_vdev *d = bqlm_vdev_of(vdev);

	memset(buf, 0, len);
	if (offset < d->config_len)
		memcpy(buf, d->config + offset,
		       min(len, d->config_len - offset));
}

static void bqlm_vdev_set(struct virtio_device *vdev, unsigned int offset,
			  const void *buf, unsigned int len)
{
	struct bqlm_vdev *d = bqlm_vdev_of(vdev);

	if (offset < d->config_len)
		memcpy(d->config + offset, buf,
		       min(len, d->config_len - offset));
}

static u8 bqlm_vdev_get_status(struct virtio_device *vdev)
{
	return bqlm_vdev_of(vdev)->status;
}

static void bqlm_vdev_set_status(struct virtio_device *vdev, u8 status)
{
	bqlm_vdev_of(vdev)->status = status;
}

static void bqlm_vdev_reset(struct virtio_device *vdev)
{
	struct bqlm_vdev *d = bqlm_vdev_of(vdev);
	unsigned int i;

	bqlm_vdev_tell(d, reset);
	d->status = 0;
	for (i = 0; i < BQLM_VDEV_MAX_VQS; i++) {
		d->q[i].live = false;
		d->q[i].kicked = 0;
	}
}

static void bqlm_vdev_del_vqs(struct virtio_device *vdev)
{
	struct bqlm_vdev *d = bqlm_vdev_of(vdev);
	struct virtqueue *vq, *n;

	list_for_each_entry_safe(vq, n, &vdev->vqs, list)
		vring_del_virtqueue(vq);
	memset(d->q, 0, sizeof(d->q));
}

static int bqlm_vdev_find_vqs(struct virtio_device *vdev, unsigned int nvqs,
			      struct virtqueue *vqs[],
			      struct virtqueue_info vqs_info[],
			      struct irq_affinity *desc)
{
	struct bqlm_vdev *d = bqlm_vdev_of(vdev);
	unsigned int i, index = 0;

	bqlm_vdev_tell(d, find_vqs);
	for (i = 0; i < nvqs; i++) {
		struct virtqueue_info *info = &vqs_info[i];
		struct virtqueue *vq;

		if (!info->name) {
			vqs[i] = NULL;
			continue;
		}
		if (index >= BQLM_VDEV_MAX_VQS)
			goto fail;
		vq = vring_create_virtqueue(index, d->vq_num[index] ?: 8,
					    SMP_CACHE_BYTES, vdev, true, false,
					    info->ctx, bqlm_vdev_notify,
					    info->callback, info->name);
		if (!vq)
			goto fail;
		/* the most the device takes: a resize may go below it */
		vq->num_max = virtqueue_get_vring_size(vq);
		bqlm_vdev_attach(d, index, vq);
		vqs[i] = vq;
		index++;
	}
	return 0;
fail:
	bqlm_vdev_del_vqs(vdev);
	return -ENOMEM;
}

static u64 bqlm_vdev_get_features(struct virtio_device *vdev)
{
	return bqlm_vdev_of(vdev)->features;
}

static int bqlm_vdev_finalize_features(struct virtio_device *vdev)
{
	/* the ring's transport features this virtio_ring.c knows */
	vring_transport_features(vdev);
	return 0;
}

static const char *bqlm_vdev_bus_name(struct virtio_device *vdev)
{
	return "bqlm";
}

static int bqlm_vdev_disable_vq_and_reset(struct virtqueue *vq)
{
	struct bqlm_vdev *d = bqlm_vdev_of_vq(vq);

	if (!d)
		return -EINVAL;
	bqlm_vdev_tell(d, vq_reset, vq->index);
	d->q[vq->index].live = false;
	d->q[vq->index].kicked = 0;
	bqlm_vdev_tell(d, vq_reset_done, vq->index);
	return 0;
}

static int bqlm_vdev_enable_vq_after_reset(struct virtqueue *vq)
{
	struct bqlm_vdev *d = bqlm_vdev_of_vq(vq);

	if (!d)
		return -EINVAL;
	bqlm_vdev_tell(d, vq_enable, vq->index);
	/* the ring may be a new one (virtqueue_resize()) */
	bqlm_vdev_attach(d, vq->index, vq);
	return 0;
}

static const struct virtio_config_ops bqlm_vdev_config_ops = {
	.get			= bqlm_vdev_get,
	.set			= bqlm_vdev_set,
	.get_status		= bqlm_vdev_get_status,
	.set_status		= bqlm_vdev_set_status,
	.reset			= bqlm_vdev_reset,
	.find_vqs		= bqlm_vdev_find_vqs,
	.del_vqs		= bqlm_vdev_del_vqs,
	.get_features		= bqlm_vdev_get_features,
	.finalize_features	= bqlm_vdev_finalize_features,
	.bus_name		= bqlm_vdev_bus_name,
	.disable_vq_and_reset	= bqlm_vdev_disable_vq_and_reset,
	.enable_vq_after_reset	= bqlm_vdev_enable_vq_after_reset,
};

static void bqlm_vdev_release(struct device *dev)
{
	kfree(bqlm_vdev_of(dev_to_virtio(dev)));
}

/**
 * bqlm_vdev_alloc() - a device, not yet on the bus
 * @device_id: its virtio device id (VIRTIO_ID_NET, ...)
 * @features: the feature bits it offers
 *
 * The caller sets the sizes of its virtqueues (@vq_num), its configuration
 * space and its @ops, then registers it (bqlm_vdev_register()). Before
 * that, kfree() frees it.
 *
 * Return: the device, or NULL.
 */
struct bqlm_vdev *bqlm_vdev_alloc(u32 device_id, u64 features)
{
	struct bqlm_vdev *d = kzalloc(sizeof(*d), GFP_KERNEL);

	if (!d)
		return NULL;
	d->vdev.id.device = device_id;
	d->vdev.id.vendor = 0;
	d->vdev.config = &bqlm_vdev_config_ops;
	d->vdev.dev.release = bqlm_vdev_release;
	d->features = features;
	return d;
}

/**
 * bqlm_vdev_register() - put the device on the virtio bus
 * @d: the device (bqlm_vdev_alloc())
 *
 * The virtio core resets it, negotiates the features with the driver that
 * binds to its id, and calls the driver's probe, all before this returns.
 * On error the device is freed.
 *
 * Return: 0 or the error of register_virtio_device().
 */
int bqlm_vdev_register(struct bqlm_vdev *d)
{
	int err = register_virtio_device(&d->vdev);

	if (err)
		put_device(&d->vdev.dev);
	return err;
}

/**
 * bqlm_vdev_unregister() - take the device off the bus
 * @d: the device
 *
 * The driver's remove runs; the device is freed when the last reference
 * to it goes: the caller must not use it after this.
 */
void bqlm_vdev_unregister(struct bqlm_vdev *d)
{
	unregister_virtio_device(&d->vdev);
}
