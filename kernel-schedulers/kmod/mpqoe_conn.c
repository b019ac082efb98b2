// SPDX-License-Identifier: GPL-2.0
/*
 * Per-connection state of an mpqoe scheduler and its /proc/net file.
 *
 * struct mptcp_sock has no scheduler-private pointer in 6.12, so the state
 * lives in a table keyed by the msk address: added by ops->init(), looked up
 * (RCU) by every ops->get_subflow(), taken out of the table by
 * ops->release(). Every connection is also in an XArray indexed by its
 * serial number (creation order), where released connections stay,
 * readable from /proc, until more than keep_closed of them are kept; then
 * the oldest go.
 *
 * /proc/net/mpqoe_<name> (one per network namespace, listing the
 * connections of that namespace from their first scheduling decision, so
 * never a listener), one line per connection:
 *
 *   conn=<n> state=live|closed token=<hex> local=<addr>:<port>
 *   remote=<addr>:<port> start_ns=<ns> end_ns=<ns> decisions=<n>
 *   switches=<n> injections=<n> reinjections=<n> no_subflow=<n>
 *   room_limited=<n> no_room=<n>
 *   bytes=<subflow id>:<bytes>[,<subflow id>:<bytes>...] bytes_other=<n>
 *
 * The file is a seq_file read under RCU only: no lock is held across the
 * dump, and between two read() calls the reader keeps no pointer, only the
 * serial number of the next connection to show.
 *
 * Writing "clear" drops the closed connections of that namespace.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/hashtable.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/proc_fs.h>
#include <linux/rculist.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/seq_file_net.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/xarray.h>
#include <net/net_namespace.h>
#include <net/sock.h>

#include "mpqoe_kmod.h"

#define MPQOE_PROC_NAME		KBUILD_MODNAME	/* "mpqoe_<scheduler>" */

/*
 * A kept connection is a 2 KB allocation (struct mpqoe_conn, 1416 bytes):
 * the bound keeps what /proc may hold to 32 MB.
 */
#define MPQOE_KEEP_CLOSED_MAX	16384

/* Connections dropped per hold of the lock when many go at once. */
#define MPQOE_DROP_BATCH	64

#define MPQOE_CLOSED		XA_MARK_0

/*
 * Every connection by serial number. Its xa_lock (taken with _bh: init()
 * may run in softirq) also protects mpqoe_live, mpqoe_nclosed and
 * mpqoe_serial.
 */
static DEFINE_XARRAY(mpqoe_conns);
static DEFINE_HASHTABLE(mpqoe_live, 8);
static unsigned int mpqoe_nclosed;
static unsigned long mpqoe_serial;
static atomic64_t mpqoe_untracked = ATOMIC64_INIT(0);

static unsigned int keep_closed = 1024;

static u64 mpqoe_cookie(const struct mptcp_sock *msk)
{
	return sock_net((const struct sock *)msk)->net_cookie;
}

/* Called with the xa_lock of mpqoe_conns held. */
static void mpqoe_conn_drop(struct mpqoe_conn *conn)
{
	__xa_erase(&mpqoe_conns, conn->serial);
	if (conn->closed)
		mpqoe_nclosed--;
	kfree_rcu(conn, rcu);
}

/*
 * Drops the oldest closed connections until at most @keep remain, at most
 * @budget of them; returns true when more should go. Called with the
 * xa_lock of mpqoe_conns held.
 */
static bool mpqoe_trim(unsigned int keep, unsigned int budget)
{
	struct mpqoe_conn *conn;
	unsigned long serial;

	xa_for_each_marked(&mpqoe_conns, serial, conn, MPQOE_CLOSED) {
		if (mpqoe_nclosed <= keep)
			return false;
		if (!budget--)
			return true;
		mpqoe_conn_drop(conn);
	}
	return false;
}

/* A lowered keep_closed applies at once, in batches (may sleep). */
static void mpqoe_trim_all(unsigned int keep)
{
	bool more;

	do {
		xa_lock_bh(&mpqoe_conns);
		more = mpqoe_trim(keep, MPQOE_DROP_BATCH);
		xa_unlock_bh(&mpqoe_conns);
		cond_resched();
	} while (more);
}

static int mpqoe_keep_closed_set(const char *val, const struct kernel_param *kp)
{
	unsigned int n;
	int err;

	err = kstrtouint(val, 0, &n);
	if (!err && n > MPQOE_KEEP_CLOSED_MAX)
		err = -ERANGE;
	if (err) {
		pr_err("keep_closed: \"%.*s\" refused: a number from 0 to %u\n",
		       (int)min_t(size_t, strcspn(val, "\n"), 24), val, MPQOE_KEEP_CLOSED_MAX);
		return err;
	}
	WRITE_ONCE(keep_closed, n);
	mpqoe_trim_all(n);
	return 0;
}

static const struct kernel_param_ops mpqoe_keep_closed_ops = {
	.set	= mpqoe_keep_closed_set,
	.get	= param_get_uint,
};

module_param_cb(keep_closed, &mpqoe_keep_closed_ops, &keep_closed, 0644);
__MODULE_PARM_TYPE(keep_closed, "uint");
MODULE_PARM_DESC(keep_closed,
		 "closed connections kept for /proc, 0..16384 (oldest dropped first)");

/* Called with the xa_lock of mpqoe_conns held. */
static void __mpqoe_conn_close(struct mpqoe_conn *conn)
{
	hash_del_rcu(&conn->hnode);
	conn->msk = NULL;
	if (!READ_ONCE(conn->family)) {	/* never scheduled (a listener): nothing to show */
		mpqoe_conn_drop(conn);
		return;
	}
	spin_lock(&conn->lock);
	conn->end_ns = ktime_get_real_ns();
	conn->closed = true;
	spin_unlock(&conn->lock);
	__xa_set_mark(&mpqoe_conns, conn->serial, MPQOE_CLOSED);
	mpqoe_nclosed++;
	mpqoe_trim(READ_ONCE(keep_closed), UINT_MAX);
}

/*
 * ops->init() may run in softirq (passive side, mptcp_sk_clone_init()), so
 * @gfp is GFP_ATOMIC there.
 */
struct mpqoe_conn *mpqoe_conn_new(const struct mptcp_sock *msk, gfp_t gfp)
{
	struct mpqoe_conn *conn, *old;
	int err;

	conn = kzalloc(sizeof(*conn), gfp);
	if (!conn)
		return NULL;

	conn->msk = msk;
	conn->net_cookie = mpqoe_cookie(msk);
	conn->start_ns = ktime_get_real_ns();
	spin_lock_init(&conn->lock);
	mpqoe_stats_init(&conn->stats);
	mpqoe_algo_init(&conn->algo);

	xa_lock_bh(&mpqoe_conns);
	/* An entry whose release never came cannot be live any more. */
	hash_for_each_possible(mpqoe_live, old, hnode, (unsigned long)msk) {
		if (old->msk == msk) {
			__mpqoe_conn_close(old);
			break;
		}
	}
	/* serials only grow: the XArray's order is creation order */
	conn->serial = ++mpqoe_serial;
	err = __xa_insert(&mpqoe_conns, conn->serial, conn, gfp);
	if (!err)
		hash_add_rcu(mpqoe_live, &conn->hnode, (unsigned long)msk);
	xa_unlock_bh(&mpqoe_conns);
	if (err) {
		kfree(conn);
		return NULL;
	}
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
	xa_lock_bh(&mpqoe_conns);
	__mpqoe_conn_close(conn);
	xa_unlock_bh(&mpqoe_conns);
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
	seq_printf(seq, "conn=%lu state=%s token=%08x", conn->serial,
		   conn->closed ? "closed" : "live", conn->token);
	mpqoe_show_addr(seq, "local", conn->family, &conn->saddr, conn->sport);
	mpqoe_show_addr(seq, "remote", conn->family, &conn->daddr, conn->dport);
	seq_printf(seq, " start_ns=%llu end_ns=%llu decisions=%llu switches=%llu",
		   conn->start_ns, conn->end_ns, st->decisions, st->switches);
	seq_printf(seq, " injections=%llu reinjections=%llu no_subflow=%llu",
		   st->injections, conn->reinjections, conn->no_subflow);
	seq_printf(seq, " room_limited=%llu no_room=%llu bytes=",
		   conn->room_limited, conn->no_room);
	n = min_t(unsigned int, mpqoe_stats_count(st), MPQOE_MAX_SUBFLOWS);
	for (i = 0; i < n; i++)
		seq_printf(seq, "%s%u:%llu", i ? "," : "", st->ids[i], st->bytes[i]);
	seq_printf(seq, " bytes_other=%llu\n", st->bytes_other);
	spin_unlock_bh(&conn->lock);
}

/* The reader's state between two read() calls: no pointer into the table. */
struct mpqoe_iter {
	struct seq_net_private	p;	/* first: seq_file_net() */
	unsigned long		serial;	/* the connection shown next */
};

/*
 * The first connection of the reader's namespace with a serial number of
 * at least @serial, or NULL. Called under rcu_read_lock(): connections are
 * freed after a grace period, so one dropped meanwhile is still readable.
 */
static struct mpqoe_conn *mpqoe_iter_find(struct seq_file *seq, unsigned long serial)
{
	struct mpqoe_iter *it = seq->private;
	u64 cookie = seq_file_net(seq)->net_cookie;
	struct mpqoe_conn *conn;
	unsigned long i;

	it->serial = serial;
	xa_for_each_start(&mpqoe_conns, i, conn, serial) {
		/* listed from the first scheduling: not listeners */
		if (conn->net_cookie == cookie && READ_ONCE(conn->family)) {
			it->serial = i;
			return conn;
		}
	}
	return NULL;
}

/*
 * Position 0 is the header. A later start resumes at the connection the
 * previous read() stopped at, or at the next one if it was dropped.
 */
static void *mpqoe_seq_start(struct seq_file *seq, loff_t *pos)
	__acquires(RCU)
{
	struct mpqoe_iter *it = seq->private;

	rcu_read_lock();
	if (!*pos) {
		it->serial = 0;
		return SEQ_START_TOKEN;
	}
	return mpqoe_iter_find(seq, it->serial);
}

static void *mpqoe_seq_next(struct seq_file *seq, void *v, loff_t *pos)
{
	struct mpqoe_iter *it = seq->private;

	++*pos;
	return mpqoe_iter_find(seq, it->serial + 1);
}

static void mpqoe_seq_stop(struct seq_file *seq, void *v)
	__releases(RCU)
{
	rcu_read_unlock();
}

static int mpqoe_seq_show(struct seq_file *seq, void *v)
{
	if (v == SEQ_START_TOKEN)
		seq_printf(seq, "# %s v1 untracked_decisions=%lld\n", MPQOE_PROC_NAME,
			   (long long)atomic64_read(&mpqoe_untracked));
	else
		mpqoe_show_conn(seq, v);
	return 0;
}

static const struct seq_operations mpqoe_seq_ops = {
	.start	= mpqoe_seq_start,
	.next	= mpqoe_seq_next,
	.stop	= mpqoe_seq_stop,
	.show	= mpqoe_seq_show,
};

/* "clear": drops the namespace's closed connections, in batches (may sleep). */
static int mpqoe_proc_write(struct file *file, char *buf, size_t size)
{
	u64 cookie = seq_file_net(file->private_data)->net_cookie;
	struct mpqoe_conn *conn;
	unsigned int n = 0;
	unsigned long serial;

	if (!sysfs_streq(buf, "clear"))
		return -EINVAL;

	xa_lock_bh(&mpqoe_conns);
	xa_for_each_marked(&mpqoe_conns, serial, conn, MPQOE_CLOSED) {
		if (conn->net_cookie == cookie)
			mpqoe_conn_drop(conn);
		if (++n % MPQOE_DROP_BATCH == 0) {
			xa_unlock_bh(&mpqoe_conns);
			cond_resched();
			xa_lock_bh(&mpqoe_conns);
		}
	}
	xa_unlock_bh(&mpqoe_conns);
	return 0;
}

static int __net_init mpqoe_net_init(struct net *net)
{
	if (!proc_create_net_data_write(MPQOE_PROC_NAME, 0644, net->proc_net,
					&mpqoe_seq_ops, mpqoe_proc_write,
					sizeof(struct mpqoe_iter), NULL))
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
	struct mpqoe_conn *conn;
	unsigned long serial;
	unsigned int n = 0;

	unregister_pernet_subsys(&mpqoe_net_ops);

	xa_lock_bh(&mpqoe_conns);
	xa_for_each(&mpqoe_conns, serial, conn) {
		if (WARN_ON_ONCE(!conn->closed))
			hash_del_rcu(&conn->hnode);
		mpqoe_conn_drop(conn);
		if (++n % MPQOE_DROP_BATCH == 0) {
			xa_unlock_bh(&mpqoe_conns);
			cond_resched();
			xa_lock_bh(&mpqoe_conns);
		}
	}
	xa_unlock_bh(&mpqoe_conns);
}
