// SPDX-License-Identifier: GPL-2.0
/*
 * Per-connection state of an mpqoe scheduler and its /proc/net file.
 *
 * struct mptcp_sock has no scheduler-private pointer in 6.12, so the state
 * lives in a table keyed by the msk address: added by ops->init(), looked up
 * (RCU) by every ops->get_subflow(), taken out of the table by
 * ops->release(). Released connections stay on the list, readable from
 * /proc, until more than keep_closed of them are kept; then the oldest go.
 *
 * /proc/net/mpqoe_<name> (one per network namespace, listing the
 * connections of that namespace from their first scheduling decision, so
 * never a listener), one line per connection:
 *
 *   conn=<n> state=live|closed token=<hex> local=<addr>:<port>
 *   remote=<addr>:<port> start_ns=<ns> end_ns=<ns> decisions=<n>
 *   switches=<n> injections=<n> reinjections=<n> no_subflow=<n>
 *   bytes=<subflow id>:<bytes>[,<subflow id>:<bytes>...] bytes_other=<n>
 *
 * Writing "clear" drops the closed connections of that namespace.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/hashtable.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/proc_fs.h>
#include <linux/rculist.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>
#include <net/sock.h>

#include "mpqoe_kmod.h"

#define MPQOE_PROC_NAME	KBUILD_MODNAME	/* "mpqoe_<scheduler>" */

static unsigned int keep_closed = 1024;
module_param(keep_closed, uint, 0644);
MODULE_PARM_DESC(keep_closed, "closed connections kept for /proc (oldest dropped first)");

static DEFINE_HASHTABLE(mpqoe_live, 8);
static LIST_HEAD(mpqoe_conns);		/* live and kept closed, oldest first */
static DEFINE_SPINLOCK(mpqoe_conns_lock);	/* table, list, counters below */
static unsigned int mpqoe_nclosed;
static u64 mpqoe_serial;
static atomic64_t mpqoe_untracked = ATOMIC64_INIT(0);

static u64 mpqoe_cookie(const struct mptcp_sock *msk)
{
	return sock_net((const struct sock *)msk)->net_cookie;
}

/* Called with mpqoe_conns_lock held. */
static void mpqoe_conn_drop(struct mpqoe_conn *conn)
{
	list_del(&conn->lnode);
	mpqoe_nclosed--;
	kfree_rcu(conn, rcu);
}

/* Called with mpqoe_conns_lock held. */
static void mpqoe_trim(void)
{
	struct mpqoe_conn *conn, *tmp;

	list_for_each_entry_safe(conn, tmp, &mpqoe_conns, lnode) {
		if (mpqoe_nclosed <= READ_ONCE(keep_closed))
			break;
		if (conn->closed)
			mpqoe_conn_drop(conn);
	}
}

/* Called with mpqoe_conns_lock held. */
static void __mpqoe_conn_close(struct mpqoe_conn *conn)
{
	hash_del_rcu(&conn->hnode);
	conn->msk = NULL;
	conn->end_ns = ktime_get_real_ns();
	conn->closed = true;
	mpqoe_nclosed++;
	if (!conn->family)	/* never scheduled (a listener): nothing to show */
		mpqoe_conn_drop(conn);
	mpqoe_trim();
}

/*
 * ops->init() may run in softirq (passive side, mptcp_sk_clone_init()), so
 * @gfp is GFP_ATOMIC there.
 */
struct mpqoe_conn *mpqoe_conn_new(const struct mptcp_sock *msk, gfp_t gfp)
{
	struct mpqoe_conn *conn, *old;

	conn = kzalloc(sizeof(*conn), gfp);
	if (!conn)
		return NULL;

	conn->msk = msk;
	conn->net_cookie = mpqoe_cookie(msk);
	conn->start_ns = ktime_get_real_ns();
	spin_lock_init(&conn->lock);
	mpqoe_stats_init(&conn->stats);
	mpqoe_algo_init(&conn->algo);

	spin_lock_bh(&mpqoe_conns_lock);
	/* An entry whose release never came cannot be live any more. */
	hash_for_each_possible(mpqoe_live, old, hnode, (unsigned long)msk) {
		if (old->msk == msk) {
			__mpqoe_conn_close(old);
			break;
		}
	}
	conn->serial = ++mpqoe_serial;
	hash_add_rcu(mpqoe_live, &conn->hnode, (unsigned long)msk);
	list_add_tail(&conn->lnode, &mpqoe_conns);
	spin_unlock_bh(&mpqoe_conns_lock);
	return conn;
}

/* Must be called with rcu read lock held. */
struct mpqoe_conn *mpqoe_conn_find(const struct mptcp_sock *msk)
{
	struct mpqoe_conn *conn;

	hash_for_each_possible_rcu(mpqoe_live, conn, hnode, (unsigned long)msk) {
		if (conn->msk == msk)
			return conn;
	}
	return NULL;
}

void mpqoe_conn_close(struct mpqoe_conn *conn)
{
	spin_lock_bh(&mpqoe_conns_lock);
	__mpqoe_conn_close(conn);
	spin_unlock_bh(&mpqoe_conns_lock);
}

/* A decision taken without per-connection state (allocation failed). */
void mpqoe_conn_untracked(void)
{
	atomic64_inc(&mpqoe_untracked);
}

static void mpqoe_show_addr(struct seq_file *seq, const char *key, u16 family,
			    const void *addr, __be16 port)
{
	if (family == AF_INET6)
		seq_printf(seq, " %s=[%pI6c]:%u", key, addr, ntohs(port));
	else
		seq_printf(seq, " %s=%pI4:%u", key, addr, ntohs(port));
}

static void mpqoe_show_conn(struct seq_file *seq, struct mpqoe_conn *conn)
{
	const struct mpqoe_stats *st = &conn->stats;
	unsigned int i, n;

	spin_lock_bh(&conn->lock);
	seq_printf(seq, "conn=%llu state=%s token=%08x", conn->serial,
		   conn->closed ? "closed" : "live", conn->token);
	mpqoe_show_addr(seq, "local", conn->family, &conn->saddr, conn->sport);
	mpqoe_show_addr(seq, "remote", conn->family, &conn->daddr, conn->dport);
	seq_printf(seq, " start_ns=%llu end_ns=%llu decisions=%llu switches=%llu",
		   conn->start_ns, conn->end_ns, st->decisions, st->switches);
	seq_printf(seq, " injections=%llu reinjections=%llu no_subflow=%llu bytes=",
		   st->injections, conn->reinjections, conn->no_subflow);
	n = min_t(unsigned int, mpqoe_stats_count(st), MPQOE_MAX_SUBFLOWS);
	for (i = 0; i < n; i++)
		seq_printf(seq, "%s%u:%llu", i ? "," : "", st->ids[i], st->bytes[i]);
	seq_printf(seq, " bytes_other=%llu\n", st->bytes_other);
	spin_unlock_bh(&conn->lock);
}

static int mpqoe_proc_show(struct seq_file *seq, void *v)
{
	u64 cookie = seq_file_single_net(seq)->net_cookie;
	struct mpqoe_conn *conn;

	seq_printf(seq, "# %s v1 untracked_decisions=%lld\n", MPQOE_PROC_NAME,
		   (long long)atomic64_read(&mpqoe_untracked));
	spin_lock_bh(&mpqoe_conns_lock);
	list_for_each_entry(conn, &mpqoe_conns, lnode) {
		/* listed from the first scheduling: not listeners */
		if (conn->net_cookie == cookie && READ_ONCE(conn->family))
			mpqoe_show_conn(seq, conn);
	}
	spin_unlock_bh(&mpqoe_conns_lock);
	return 0;
}

static int mpqoe_proc_write(struct file *file, char *buf, size_t size)
{
	u64 cookie = seq_file_single_net(file->private_data)->net_cookie;
	struct mpqoe_conn *conn, *tmp;

	if (!sysfs_streq(buf, "clear"))
		return -EINVAL;

	spin_lock_bh(&mpqoe_conns_lock);
	list_for_each_entry_safe(conn, tmp, &mpqoe_conns, lnode) {
		if (conn->closed && conn->net_cookie == cookie)
			mpqoe_conn_drop(conn);
	}
	spin_unlock_bh(&mpqoe_conns_lock);
	return 0;
}

static int __net_init mpqoe_net_init(struct net *net)
{
	if (!proc_create_net_single_write(MPQOE_PROC_NAME, 0644, net->proc_net,
					  mpqoe_proc_show, mpqoe_proc_write, NULL))
		return -ENOMEM;
	return 0;
}

static void __net_exit mpqoe_net_exit(struct net *net)
{
	remove_proc_entry(MPQOE_PROC_NAME, net->proc_net);
}

static struct pernet_operations mpqoe_net_ops = {
	.init = mpqoe_net_init,
	.exit = mpqoe_net_exit,
};

int mpqoe_conn_init(void)
{
	return register_pernet_subsys(&mpqoe_net_ops);
}

/*
 * Called after the scheduler left the list and no connection holds a
 * reference on the module, so every connection is released.
 */
void mpqoe_conn_exit(void)
{
	struct mpqoe_conn *conn, *tmp;

	unregister_pernet_subsys(&mpqoe_net_ops);

	spin_lock_bh(&mpqoe_conns_lock);
	list_for_each_entry_safe(conn, tmp, &mpqoe_conns, lnode) {
		if (WARN_ON_ONCE(!conn->closed))
			hash_del_rcu(&conn->hnode);
		list_del(&conn->lnode);
		kfree_rcu(conn, rcu);
	}
	mpqoe_nclosed = 0;
	spin_unlock_bh(&mpqoe_conns_lock);
}
