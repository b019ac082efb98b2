// SPDX-License-Identifier: GPL-2.0
/*
 * Per-connection state of an mpqoe scheduler and its line in
 * /proc/net/mpqoe_<name> (the table: mpqoe_table.c).
 *
 * struct mptcp_sock has no scheduler-private pointer in 6.12, so the state
 * lives in the module's table keyed by the msk address: added by
 * ops->init(), looked up (RCU) by every scheduling decision, closed by
 * ops->release(). A connection is listed from its first scheduling
 * decision, so never a listener; after the common fields, its line reads
 *
 *   decisions=<n> switches=<n> injections=<n> reinjections=<n>
 *   no_subflow=<n> room_limited=<n> no_room=<n>
 *   bytes=<subflow id>:<bytes>[,<subflow id>:<bytes>...] bytes_other=<n>
 *
 * and the header line counts untracked_decisions=<n>, those taken without
 * per-connection state (allocation failed).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/slab.h>
#include <net/sock.h>

#include "mpqoe_kmod.h"

static atomic64_t mpqoe_untracked = ATOMIC64_INIT(0);

void mpqoe_entry_free(struct mpqoe_entry *e)
{
	kfree(container_of(e, struct mpqoe_conn, e));
}

/*
 * ops->init() may run in softirq (passive side, mptcp_sk_clone_init()), so
 * @gfp is GFP_ATOMIC there.
 */
struct mpqoe_conn *mpqoe_conn_new(const struct mptcp_sock *msk, gfp_t gfp)
{
	struct mpqoe_conn *conn;
	struct mpqoe_entry *old;
	int err;

	conn = kzalloc(sizeof(*conn), gfp);
	if (!conn)
		return NULL;

	mpqoe_entry_init(&conn->e, msk, sock_net((const struct sock *)msk)->net_cookie);
	mpqoe_stats_init(&conn->stats);
	mpqoe_algo_init(&conn->algo);

	mpqoe_table_lock();
	/* An entry whose release never came cannot be live any more. */
	old = mpqoe_table_find(msk);
	if (old)
		__mpqoe_table_close(old);
	err = __mpqoe_table_insert(&conn->e, gfp);
	mpqoe_table_unlock();
	if (err) {
		kfree(conn);
		return NULL;
	}
	return conn;
}

/* Must be called with rcu read lock held. */
struct mpqoe_conn *mpqoe_conn_find(const struct mptcp_sock *msk)
{
	struct mpqoe_entry *e = mpqoe_table_find(msk);

	return e ? container_of(e, struct mpqoe_conn, e) : NULL;
}

void mpqoe_conn_close(struct mpqoe_conn *conn)
{
	mpqoe_table_lock();
	__mpqoe_table_close(&conn->e);
	mpqoe_table_unlock();
}

/* A decision taken without per-connection state (allocation failed). */
void mpqoe_conn_untracked(void)
{
	atomic64_inc(&mpqoe_untracked);
}

void mpqoe_table_show_header(struct seq_file *seq)
{
	seq_printf(seq, " untracked_decisions=%lld", (long long)atomic64_read(&mpqoe_untracked));
}

void mpqoe_entry_show(struct seq_file *seq, struct mpqoe_entry *e)
{
	struct mpqoe_conn *conn = container_of(e, struct mpqoe_conn, e);
	const struct mpqoe_stats *st = &conn->stats;
	unsigned int i, n;

	spin_lock_bh(&e->lock);
	mpqoe_entry_show_head(seq, e);
	seq_printf(seq, " decisions=%llu switches=%llu", st->decisions, st->switches);
	seq_printf(seq, " injections=%llu reinjections=%llu no_subflow=%llu",
		   st->injections, conn->reinjections, conn->no_subflow);
	seq_printf(seq, " room_limited=%llu no_room=%llu bytes=",
		   conn->room_limited, conn->no_room);
	n = min_t(unsigned int, mpqoe_stats_count(st), MPQOE_MAX_SUBFLOWS);
	for (i = 0; i < n; i++)
		seq_printf(seq, "%s%u:%llu", i ? "," : "", st->ids[i], st->bytes[i]);
	seq_printf(seq, " bytes_other=%llu\n", st->bytes_other);
	spin_unlock_bh(&e->lock);
}
