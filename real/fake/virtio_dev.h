/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlmodel - a fake virtio device on a fake transport, for the real-code
 * harness (see docs/real-code.md).
 *
 * The transport is a struct virtio_config_ops written here: the virtio core
 * (drivers/virtio/virtio.c) registers the device on the real virtio bus,
 * negotiates the features with the driver that binds to it, and the
 * driver's virtqueues are made by the tree's drivers/virtio/virtio_ring.c
 * (packed rings, vring_create_virtqueue()). The device side is the
 * schedule's: it takes no buffer by itself. bqlm_vdev_complete() takes the
 * next chain of descriptors the driver made available and notified, marks
 * it used, and raises the used-buffer notification (vring_interrupt())
 * when the driver's event suppression allows it. Buffers are used in the
 * order they were made available (in order), with a length of 0 (the
 * device writes nothing into them).
 *
 * What it leaves out: indirect descriptors, event indices, notification
 * data and the DMA API are not offered (the harness offers the features it
 * names, and the core keeps what the driver also knows); the device never
 * uses a buffer of its own accord (a receive queue's buffers stay there),
 * never changes its configuration space, and never fails.
 *
 * Kernel only: the userspace build never compiles real/.
 */
#ifndef _BQLM_REAL_VIRTIO_DEV_H
#define _BQLM_REAL_VIRTIO_DEV_H

#include <linux/types.h>
#include <linux/virtio.h>
#include <linux/virtio_ring.h>

#define BQLM_VDEV_MAX_VQS	6
#define BQLM_VDEV_CONFIG	64

struct bqlm_vdev;

/**
 * struct bqlm_vdev_ops - what the device tells its user (all optional)
 * @reset: the driver resets the device (virtio_reset_device())
 * @find_vqs: the driver asks for its virtqueues (they are made after)
 * @vq_reset: the driver resets virtqueue @index (disable_vq_and_reset)
 * @vq_reset_done: the device has let go of virtqueue @index
 * @vq_enable: the driver enables a reset virtqueue again
 * @notify: the driver notified virtqueue @index (after the device counted
 *	what it made available)
 */
struct bqlm_vdev_ops {
	void (*reset)(struct bqlm_vdev *d);
	void (*find_vqs)(struct bqlm_vdev *d);
	void (*vq_reset)(struct bqlm_vdev *d, unsigned int index);
	void (*vq_reset_done)(struct bqlm_vdev *d, unsigned int index);
	void (*vq_enable)(struct bqlm_vdev *d, unsigned int index);
	void (*notify)(struct bqlm_vdev *d, unsigned int index);
};

/**
 * struct bqlm_vdev_vq - the device's side of one virtqueue
 * @vq: the driver's virtqueue, NULL when there is none
 * @desc: its descriptor ring (packed)
 * @driver: the driver's event suppression area
 * @num: descriptors in the ring
 * @next: the device's position in the ring
 * @wrap: its wrap counter there
 * @kicked: chains made available and notified, not yet used
 * @used: chains used since the virtqueue was made
 * @live: the virtqueue is set up and not reset
 */
struct bqlm_vdev_vq {
	struct virtqueue *vq;
	struct vring_packed_desc *desc;
	struct vring_packed_desc_event *driver;
	unsigned int num;
	unsigned int next;
	bool wrap;
	unsigned int kicked;
	unsigned int used;
	bool live;
};

/**
 * struct bqlm_vdev - the device
 * @vdev: the virtio device, on the virtio bus
 * @features: the feature bits the device offers
 * @status: its status byte
 * @vq_num: the size of each virtqueue, by index (a resize changes it)
 * @q: the device's side of each virtqueue
 * @config: the configuration space
 * @config_len: its length
 * @ops: what the device tells its user
 * @priv: its user's
 */
struct bqlm_vdev {
	struct virtio_device vdev;
	u64 features;
	u8 status;
	unsigned int vq_num[BQLM_VDEV_MAX_VQS];
	struct bqlm_vdev_vq q[BQLM_VDEV_MAX_VQS];
	u8 config[BQLM_VDEV_CONFIG];
	unsigned int config_len;
	const struct bqlm_vdev_ops *ops;
	void *priv;
};

struct bqlm_vdev *bqlm_vdev_alloc(u32 device_id, u64 features);
int bqlm_vdev_register(struct bqlm_vdev *d);
void bqlm_vdev_unregister(struct bqlm_vdev *d);
unsigned int bqlm_vdev_kicked(const struct bqlm_vdev *d, unsigned int index);
bool bqlm_vdev_cb_enabled(const struct bqlm_vdev *d, unsigned int index);
int bqlm_vdev_complete(struct bqlm_vdev *d, unsigned int index, u64 *addr);

#endif /* _BQLM_REAL_VIRTIO_DEV_H */
