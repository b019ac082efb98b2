// SPDX-License-Identifier: GPL-2.0
/*
 * mpqoe connection table and /proc/net/mpqoe_<name> (mpqoe_table.h).
 *
 * /proc/net/mpqoe_<name> exists once per network namespace and lists the
 * connections of that namespace whose addresses are known: a header line
 * "# mpqoe_<name> v1 <the module's counters>", then one line per
 * connection, oldest first, starting with
 *
 *   conn=<n> state=live|closed token=<hex> local=<addr>:<port>
 *   remote=<addr>:<port> start_ns=<ns> end_ns=<ns>
 *
 * and going on with the module's fields. Writing "clear" drops the closed
 * connections of that namespace.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/hashtable.h>
#include <linux/lockdep.h>
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
#include <net/inet_sock.h>
#include <net/net_namespace.h>
#include <net/sock.h>

#include "mpqoe_table.h"

#define MPQOE_PROC_NAME		KBUILD_MODNAME	/* "mpqoe_<name>" */

/*
 * What a kept connection costs is the module's (docs/kernel-schedulers.md,
 * docs/coupled-cc.md): at most a few KB each, so at most some tens of MB.
 */
#define MPQOE_KEEP_CLOSED_MAX	16384

/* Connections dropped per hold of the lock when many go at once. */
#define MPQOE_DROP_BATCH	64

#define MPQOE_CLOSED		XA_MARK_0

/*
 * Every connection by serial number. Its xa_lock (the table lock) also
 * protects mpqoe_live, mpqoe_nclosed and mpqoe_serial.
 */
static DEFINE_XARRAY(mpqoe_conns);
static DEFINE_HASHTABLE(mpqoe_live, 8);
static unsigned int mpqoe_nclosed;
static unsigned long mpqoe_serial;

static unsigned int keep_closed = 1024;

void mpqoe_table_lock(void)
	__acquires(&mpqoe_conns.xa_lock)
{
	xa_lock_bh(&mpqoe_conns);
}

void mpqoe_table_unlock(void)
	__releases(&mpqoe_conns.xa_lock)
{
	xa_unlock_bh(&mpqoe_conns);
}

static void mpqoe_entry_free_rcu(struct rcu_head *head)
{
	mpqoe_entry_free(container_of(head, struct mpqoe_entry, rcu));
}

/* Table lock held; @e is unhashed. */
static void mpqoe_table_drop(struct mpqoe_entry *e)
{
	__xa_erase(&mpqoe_conns, e->serial);
	if (e->closed)
		mpqoe_nclosed--;
	call_rcu(&e->rcu, mpqoe_entry_free_rcu);
}

/*
 * Drops the oldest closed connections until at most @keep remain, at most
 * @budget of them; returns true when more should go. Table lock held.
 */
static bool mpqoe_trim(unsigned int keep, unsigned int budget)
{
	struct mpqoe_entry *e;
	unsigned long serial;

	xa_for_each_marked(&mpqoe_conns, serial, e, MPQOE_CLOSED) {
		if (mpqoe_nclosed <= keep)
			return false;
		if (!budget--)
			return true;
		mpqoe_table_drop(e);
	}
	return false;
}

/* A lowered keep_closed applies at once, in batches (may sleep). */
static void mpqoe_trim_all(unsigned int keep)
{
	bool more;

	do {
		mpqoe_table_lock();
		more = mpqoe_trim(keep, MPQOE_DROP_BATCH);
		mpqoe_table_unlock();
		cond_resched();
	} while (more);
}

int mpqoe_param_uint(const char *name, const char *val, unsigned int max, unsigned int *n)
{
	int err = kstrtouint(val, 0, n);

	if (!err && *n > max)
		err = -ERANGE;
	if (err)
		pr_err("%s: \"%.*s\" refused: a number from 0 to %u\n", name,
		       (int)min_t(size_t, strcspn(val, "\n"), 24), val, max);
	return err;
}

static int mpqoe_keep_closed_set(const char *val, const struct kernel_param *kp)
{
	unsigned int n;
	int err = mpqoe_param_uint("keep_closed", val, MPQOE_KEEP_CLOSED_MAX, &n);

	if (err)
		return err;
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

void mpqoe_entry_init(struct mpqoe_entry *e, const void *key, u64 net_cookie)
{
	e->key = key;
	e->net_cookie = net_cookie;
	e->start_ns = ktime_get_real_ns();
	spin_lock_init(&e->lock);
}

/*
 * The connection's addresses and ports, from now on listed in /proc.
 * e->lock held (or @e not in the table yet).
 */
void mpqoe_entry_note_addr(struct mpqoe_entry *e, const struct sock *msk)
{
	const struct inet_sock *inet = inet_sk(msk);

	e->sport = inet->inet_sport;
	e->dport = inet->inet_dport;
	e->saddr.v4 = inet->inet_saddr;
	e->daddr.v4 = inet->inet_daddr;
#if IS_ENABLED(CONFIG_IPV6)
	if (msk->sk_family == AF_INET6) {
		e->saddr.v6 = msk->sk_v6_rcv_saddr;
		e->daddr.v6 = msk->sk_v6_daddr;
	}
#endif
	WRITE_ONCE(e->family, msk->sk_family);	/* read without the lock by /proc */
}

/*
 * The hashed entry of @key, or NULL. Under rcu_read_lock() or the table
 * lock.
 */
struct mpqoe_entry *mpqoe_table_find(const void *key)
{
	struct mpqoe_entry *e;

	hash_for_each_possible_rcu(mpqoe_live, e, hnode, (unsigned long)key,
				   lockdep_is_held(&mpqoe_conns.xa_lock)) {
		if (READ_ONCE(e->key) == key)
			return e;
	}
	return NULL;
}

/*
 * Gives @e its serial number (they only grow: the XArray's order is
 * creation order) and makes it live. Table lock held; @gfp is GFP_ATOMIC
 * where the caller may be in softirq.
 */
int __mpqoe_table_insert(struct mpqoe_entry *e, gfp_t gfp)
{
	int err;

	e->serial = ++mpqoe_serial;
	err = __xa_insert(&mpqoe_conns, e->serial, e, gfp);
	if (err)
		return err;
	hash_add_rcu(mpqoe_live, &e->hnode, (unsigned long)e->key);
	e->hashed = true;
	return 0;
}

/* Takes @e out of the live table (its key may be reused). Table lock held. */
void __mpqoe_table_unhash(struct mpqoe_entry *e)
{
	if (e->hashed) {
		hash_del_rcu(&e->hnode);
		e->hashed = false;
		WRITE_ONCE(e->key, NULL);	/* RCU readers still on it skip it */
	}
}

/*
 * The connection ended: kept for /proc as closed, or dropped at once if it
 * was never listed. Table lock held.
 */
void __mpqoe_table_close(struct mpqoe_entry *e)
{
	__mpqoe_table_unhash(e);
	if (!READ_ONCE(e->family)) {
		mpqoe_table_drop(e);
		return;
	}
	spin_lock(&e->lock);
	e->end_ns = ktime_get_real_ns();
	e->closed = true;
	spin_unlock(&e->lock);
	__xa_set_mark(&mpqoe_conns, e->serial, MPQOE_CLOSED);
	mpqoe_nclosed++;
	mpqoe_trim(READ_ONCE(keep_closed), UINT_MAX);
}

/*
 * The first listed connection of namespace @net_cookie with a serial
 * number of at least @serial, its number in *@found; NULL (and *@found =
 * @serial) when there is none. Under rcu_read_lock(): an entry dropped
 * meanwhile is still readable.
 */
struct mpqoe_entry *mpqoe_table_first(u64 net_cookie, unsigned long serial,
				      unsigned long *found)
{
	struct mpqoe_entry *e;
	unsigned long i;

	*found = serial;
	xa_for_each_start(&mpqoe_conns, i, e, serial) {
		if (e->net_cookie == net_cookie && READ_ONCE(e->family)) {
			*found = i;
			return e;
		}
	}
	return NULL;
}

static void mpqoe_show_addr(struct seq_file *seq, const char *key, u16 family,
			    const void *addr, __be16 port)
{
	if (family == AF_INET6)
		seq_printf(seq, " %s=[%pI6c]:%u", key, addr, ntohs(port));
	else
		seq_printf(seq, " %s=%pI4:%u", key, addr, ntohs(port));
}

/* The fields every /proc line starts with. e->lock held. */
void mpqoe_entry_show_head(struct seq_file *seq, const struct mpqoe_entry *e)
{
	seq_printf(seq, "conn=%lu state=%s token=%08x", e->serial,
		   e->closed ? "closed" : "live", e->token);
	mpqoe_show_addr(seq, "local", e->family, &e->saddr, e->sport);
	mpqoe_show_addr(seq, "remote", e->family, &e->daddr, e->dport);
	seq_printf(seq, " start_ns=%llu end_ns=%llu", e->start_ns, e->end_ns);
}

/* The reader's state between two read() calls: no pointer into the table. */
struct mpqoe_iter {
	struct seq_net_private	p;	/* first: seq_file_net() */
	unsigned long		serial;	/* the connection shown next */
};

static struct mpqoe_entry *mpqoe_iter_find(struct seq_file *seq, unsigned long serial)
{
	struct mpqoe_iter *it = seq->private;

	return mpqoe_table_first(seq_file_net(seq)->net_cookie, serial, &it->serial);
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
	if (v == SEQ_START_TOKEN) {
		seq_puts(seq, "# " MPQOE_PROC_NAME " v1");
		mpqoe_table_show_header(seq);
		seq_putc(seq, '\n');
	} else {
		mpqoe_entry_show(seq, v);
	}
	return 0;
}

static const struct seq_operations mpqoe_seq_ops = {
	.start	= mpqoe_seq_start,
	.next	= mpqoe_seq_next,
	.stop	= mpqoe_seq_stop,
	.show	= mpqoe_seq_show,
};

/*
 * Drops the closed connections of the namespace of *@net_cookie, of all
 * namespaces if it is NULL, in batches (may sleep).
 */
static void mpqoe_drop_closed(const u64 *net_cookie)
{
	struct mpqoe_entry *e;
	unsigned int n = 0;
	unsigned long serial;

	mpqoe_table_lock();
	xa_for_each_marked(&mpqoe_conns, serial, e, MPQOE_CLOSED) {
		if (!net_cookie || e->net_cookie == *net_cookie)
			mpqoe_table_drop(e);
		if (++n % MPQOE_DROP_BATCH == 0) {
			mpqoe_table_unlock();
			cond_resched();
			mpqoe_table_lock();
		}
	}
	mpqoe_table_unlock();
}

/* "clear": drops the namespace's closed connections. */
static int mpqoe_proc_write(struct file *file, char *buf, size_t size)
{
	u64 cookie = seq_file_net(file->private_data)->net_cookie;

	if (!sysfs_streq(buf, "clear"))
		return -EINVAL;
	mpqoe_drop_closed(&cookie);
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

int mpqoe_table_init(void)
{
	return register_pernet_subsys(&mpqoe_net_ops);
}

/*
 * Called once nothing can reach the module's hooks any more, so every
 * connection is closed; one that is not (a bug) is leaked rather than
 * freed under a user. rcu_barrier() waits for the pending frees, which
 * run the module's code.
 */
void mpqoe_table_exit(void)
{
	unregister_pernet_subsys(&mpqoe_net_ops);
	mpqoe_drop_closed(NULL);
	WARN_ON_ONCE(!xa_empty(&mpqoe_conns));
	rcu_barrier();
}
