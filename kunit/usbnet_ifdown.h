/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlmodel - an ifdown of the usbnet model driven to its end, shared by
 * the model's suite (bqlm_usbnet) and the real code's
 * (bqlm_real_usbnet_stalled): does usbnet_stop() end when the device has
 * stopped draining its bulk-out endpoint (the model's tx-stall)?
 */
#ifndef _BQLM_KUNIT_USBNET_IFDOWN_H
#define _BQLM_KUNIT_USBNET_IFDOWN_H

#include <bqlm/explore.h>
#include <bqlm/usbnet.h>

/* Steps an ifdown may take at most, the unlinks' givebacks included */
#define USBNET_IFDOWN_MAX	64

/**
 * usbnet_ifdown_helps() - may an action help an ifdown to its end?
 * @dev: the state
 * @action: an action enabled in it
 *
 * Its own steps, the device's givebacks (with tx-stall only those of
 * unlinked URBs), the bottom halves and the kevent, a resume, and the end
 * of a transmit or a suspend already begun; not a new transmit, open,
 * suspend, watchdog timeout, link report, MTU change or unplug.
 *
 * Return: true if it may.
 */
static inline bool usbnet_ifdown_helps(const struct bqlm_usbnet *dev,
				       unsigned int action)
{
	switch (BQLM_X_KIND(action)) {
	case BQLM_USBNET_A_XMIT:
	case BQLM_USBNET_A_NCM_FLUSH:
		return dev->xmit != BQLM_USBNET_XMIT_IDLE;
	case BQLM_USBNET_A_SUSPEND:
		return dev->pm != BQLM_USBNET_AWAKE;
	case BQLM_USBNET_A_COMPLETE:
	case BQLM_USBNET_A_DEFER_BH:
	case BQLM_USBNET_A_BH:
	case BQLM_USBNET_A_KEVENT:
	case BQLM_USBNET_A_STOP:
	case BQLM_USBNET_A_RESUME:
		return true;
	default:
		return false;
	}
}

/**
 * usbnet_ifdown_wanted() - is an ifdown under way, or one left to begin?
 * @dev: the state
 *
 * Return: true if so.
 */
static inline bool usbnet_ifdown_wanted(const struct bqlm_usbnet *dev)
{
	return dev->admin != BQLM_USBNET_DOWN &&
	       (dev->admin != BQLM_USBNET_UP || dev->stops_left);
}

/**
 * usbnet_ifdown_drive() - drive an ifdown to its end
 * @sys: the model
 * @dev: the state, stepped in place
 * @next: room for a state
 * @size: a state's size
 * @path: NULL, or receives the actions taken from index @n on
 * @n: the actions @path holds already
 * @max: room in @path
 *
 * From @dev, whose ifdown is wanted (usbnet_ifdown_wanted()), the actions
 * that help it (usbnet_ifdown_helps()), ifdown's own first, until the
 * device is down.
 *
 * Return: the actions in @path after it (@n plus the steps), or -1 if the
 * ifdown did not end within USBNET_IFDOWN_MAX steps (no helping action
 * left: it waits for ever), -2 if a step failed or @path is full.
 */
static inline int usbnet_ifdown_drive(const struct bqlm_xsys *sys,
				      struct bqlm_usbnet *dev,
				      struct bqlm_usbnet *next, size_t size,
				      unsigned int *path, unsigned int n,
				      unsigned int max)
{
	const unsigned int stop = BQLM_X_ACTION(BQLM_USBNET_A_STOP, 0);
	unsigned int a[BQLM_X_MAX_ACTIONS];
	unsigned int i, k, pick, steps;

	for (steps = 0; dev->admin != BQLM_USBNET_DOWN; steps++) {
		if (steps > USBNET_IFDOWN_MAX)
			return -1;
		k = bqlm_xenabled(sys, dev, a);
		pick = BQLM_X_MAX_ACTIONS;
		for (i = 0; i < k; i++) {
			if (a[i] == stop) {
				pick = i;
				break;
			}
			if (pick == BQLM_X_MAX_ACTIONS &&
			    usbnet_ifdown_helps(dev, a[i]))
				pick = i;
		}
		if (pick == BQLM_X_MAX_ACTIONS)
			return -1;
		if (path && n >= max)
			return -2;
		memcpy(next, dev, size);
		if (bqlm_xstep(sys, dev, a[pick], next, NULL) < 0)
			return -2;
		memcpy(dev, next, size);
		if (path)
			path[n] = a[pick];
		n++;
	}
	return n;
}

#endif /* _BQLM_KUNIT_USBNET_IFDOWN_H */
