/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mpqoe connection table: the MPTCP connections one module has seen and
 * its file /proc/net/mpqoe_<name>, the same for the scheduler modules
 * (mpqoe_conn.c) and the congestion control modules (mpqoe_cc_glue.c).
 *
 * Every connection is in an XArray indexed by its serial number (creation
 * order), where closed ones stay, readable from /proc, until more than
 * keep_closed of them are kept; then the oldest go. A live connection is
 * also in a hash table keyed by its msk's address. The table lock is the
 * XArray's xa_lock, taken with _bh: entries are created in softirq too.
 * Entries are freed after an RCU grace period, so /proc reads the table
 * under RCU only, and between two read() calls the reader keeps no
 * pointer, only the serial number of the next connection to show.
 *
 * The module embeds struct mpqoe_entry in its own connection structure
 * and defines the three functions declared under "the module's part"
 * below, called directly (no function pointers).
 */
#ifndef MPQOE_TABLE_H
#define MPQOE_TABLE_H

#include <linux/in6.h>
#include <linux/rcupdate.h>
#include <linux/seq_file.h>
#include <linux/spinlock.h>
#include <linux/types.h>

struct sock;

struct mpqoe_entry {
	struct hlist_node	hnode;	/* live table, keyed by @key, while @hashed */
	struct rcu_head		rcu;
	const void		*key;	/* the msk, compared only; NULL once unhashed */
	bool			hashed;	/* table lock */
	u64			net_cookie;
	unsigned long		serial;
	u64			start_ns;

	/*
	 * The module's leaf lock of the connection, taken inside the table
	 * lock; /proc reads the fields below and the module's own under it.
	 */
	spinlock_t		lock;
	u64			end_ns;
	bool			closed;
	u32			token;
	u16			family;	/* 0: addresses not known yet, not listed */
	__be16			sport;
	__be16			dport;
	union {
		__be32		v4;
		struct in6_addr	v6;
	} saddr, daddr;
};

/* the module's part */
void mpqoe_entry_free(struct mpqoe_entry *e);	/* frees the containing structure */
void mpqoe_entry_show(struct seq_file *seq, struct mpqoe_entry *e);	/* one line */
void mpqoe_table_show_header(struct seq_file *seq);	/* the header line after "v1" */

/* the table */
void mpqoe_entry_init(struct mpqoe_entry *e, const void *key, u64 net_cookie);
void mpqoe_entry_note_addr(struct mpqoe_entry *e, const struct sock *msk);
void mpqoe_entry_show_head(struct seq_file *seq, const struct mpqoe_entry *e);
void mpqoe_table_lock(void);
void mpqoe_table_unlock(void);
struct mpqoe_entry *mpqoe_table_find(const void *key);
int __mpqoe_table_insert(struct mpqoe_entry *e, gfp_t gfp);
void __mpqoe_table_unhash(struct mpqoe_entry *e);
void __mpqoe_table_close(struct mpqoe_entry *e);
struct mpqoe_entry *mpqoe_table_first(u64 net_cookie, unsigned long serial,
				      unsigned long *found);
int mpqoe_table_init(void);
void mpqoe_table_exit(void);

/* module parameters: a number from 0 to @max, or the error, logged */
int mpqoe_param_uint(const char *name, const char *val, unsigned int max, unsigned int *n);

#endif /* MPQOE_TABLE_H */
