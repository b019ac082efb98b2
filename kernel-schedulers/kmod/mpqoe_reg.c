// SPDX-License-Identifier: GPL-2.0
/*
 * Registration of an mpqoe scheduler in the MPTCP scheduler list.
 *
 * Linux (6.12 to at least 7.3) does not export mptcp_register_scheduler()
 * and mptcp_unregister_scheduler() to modules. Two builds:
 *
 * - default (stock kernel): the loader (mpqoe-load) reads the addresses of
 *   the two data objects behind them, mptcp_sched_list and
 *   mptcp_sched_list_lock, from /proc/kallsyms and passes them as module
 *   parameters. They are checked here with sprint_symbol() (exported) and
 *   the list must already hold the built-in "default" scheduler. The module
 *   then does what sched.c does, with the same lock. No kernel function is
 *   called through a pointer, so IBT (sealed ENDBR) is not involved.
 *
 * - MPQOE_EXPORTED (kernel built with patches/0001-*.patch): the exported
 *   functions are called directly and the parameters are not used.
 *
 * Both add the grace period upstream's unregistration lacks: a reader of
 * the list (mptcp_sched_find() under rcu_read_lock()) may still hold the
 * ops when the module text is about to go away.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/rculist.h>
#include <linux/string.h>

#include "mpqoe_kmod.h"

#ifdef MPQOE_EXPORTED

#include "protocol.h"

int mpqoe_reg_init(void)
{
	return 0;
}

int mpqoe_reg_add(struct mptcp_sched_ops *ops)
{
	return mptcp_register_scheduler(ops);
}

void mpqoe_reg_del(struct mptcp_sched_ops *ops)
{
	mptcp_unregister_scheduler(ops);
	synchronize_rcu();
}

#else /* !MPQOE_EXPORTED */

static unsigned long sched_list;
module_param(sched_list, ulong, 0400);
MODULE_PARM_DESC(sched_list, "address of mptcp_sched_list (from /proc/kallsyms; use mpqoe-load)");

static unsigned long sched_list_lock;
module_param(sched_list_lock, ulong, 0400);
MODULE_PARM_DESC(sched_list_lock,
		 "address of mptcp_sched_list_lock (from /proc/kallsyms; use mpqoe-load)");

static struct list_head *mpqoe_sched_list;
static spinlock_t *mpqoe_sched_lock;

/* @addr must be exactly the start of the kernel symbol @name. */
static int mpqoe_check_symbol(unsigned long addr, const char *name)
{
	char buf[KSYM_SYMBOL_LEN];
	size_t len = strlen(name);

	if (!addr) {
		pr_err("parameter for %s missing: load the module with mpqoe-load\n", name);
		return -EINVAL;
	}
	sprint_symbol(buf, addr);
	if (strncmp(buf, name, len) || strncmp(buf + len, "+0x0/", 5)) {
		pr_err("address given for %s points to %s\n", name, buf);
		return -EINVAL;
	}
	return 0;
}

int mpqoe_reg_init(void)
{
	struct mptcp_sched_ops *sched;
	bool has_default = false;
	int err;

	err = mpqoe_check_symbol(sched_list, "mptcp_sched_list");
	if (!err)
		err = mpqoe_check_symbol(sched_list_lock, "mptcp_sched_list_lock");
	if (err)
		return err;

	mpqoe_sched_list = (struct list_head *)sched_list;
	mpqoe_sched_lock = (spinlock_t *)sched_list_lock;

	spin_lock(mpqoe_sched_lock);
	list_for_each_entry(sched, mpqoe_sched_list, list) {
		if (!strcmp(sched->name, "default"))
			has_default = true;
	}
	spin_unlock(mpqoe_sched_lock);
	if (!has_default) {
		pr_err("mptcp_sched_list has no \"default\" scheduler: unexpected kernel\n");
		return -EINVAL;
	}
	return 0;
}

/*
 * Copied from mptcp_register_scheduler(), net/mptcp/sched.c (not exported):
 * the same checks in the same order, with mptcp_sched_find() inlined (not
 * exported either); the operation required is the one of the kernel's
 * interface (mptcp_validate_scheduler() checks get_send in later kernels).
 */
int mpqoe_reg_add(struct mptcp_sched_ops *ops)
{
	struct mptcp_sched_ops *sched;

#if MPQOE_SCHED_API == 2
	if (!ops->get_send)
		return -EINVAL;
#else
	if (!ops->get_subflow)
		return -EINVAL;
#endif

	spin_lock(mpqoe_sched_lock);
	list_for_each_entry(sched, mpqoe_sched_list, list) {
		if (!strcmp(sched->name, ops->name)) {
			spin_unlock(mpqoe_sched_lock);
			return -EEXIST;
		}
	}
	list_add_tail_rcu(&ops->list, mpqoe_sched_list);
	spin_unlock(mpqoe_sched_lock);
	return 0;
}

/*
 * Copied from mptcp_unregister_scheduler(), net/mptcp/sched.c (not
 * exported), plus the grace period it lacks.
 */
void mpqoe_reg_del(struct mptcp_sched_ops *ops)
{
	spin_lock(mpqoe_sched_lock);
	list_del_rcu(&ops->list);
	spin_unlock(mpqoe_sched_lock);
	synchronize_rcu();
}

#endif /* MPQOE_EXPORTED */
