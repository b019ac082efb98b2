"""The layout check's reading of pahole output (kmod/layout_check.py), without a kernel."""

import unittest
from unittest import mock

import layout_check

# the shape of pahole's output: a bit-field, an anonymous union holding a struct, a named
# inline struct, an array, a function pointer, comments and holes
SAMPLE = """struct mptcp_subflow_context {
	struct list_head           node;                 /*     0    16 */
	union {
		struct {
			u32        request_mptcp:1;      /*    16: 0  4 */
			u32        stale:1;              /*    16:19  4 */
			bool       scheduled;            /*    20     1 */

			/* XXX 3 bytes hole, try to pack */

			u8         hmac[20];             /*    24    20 */
		};                                       /*    16    28 */
		u64        other;                        /*    16     8 */
	};                                               /*    16    32 */
	struct {
		u32        a;                            /*    48     4 */
	} named;                                         /*    48     4 */
	int                        (*get_send)(struct mptcp_sock *); /*    56     8 */
	/* --- cacheline 1 boundary (64 bytes) --- */
	u8                         stale_count;          /*    64     1 */

	/* size: 72, cachelines: 2, members: 6 */
};
"""


class Parse(unittest.TestCase):
    def test_members_flattened_with_offsets_bits_and_sizes(self):
        m = layout_check.parse(SAMPLE)
        self.assertEqual(m["node"], (0, 0, 16))
        self.assertEqual(m["request_mptcp"], (16, 0, 4))
        self.assertEqual(m["stale"], (16, 19, 4))
        self.assertEqual(m["scheduled"], (20, 0, 1))
        self.assertEqual(m["hmac"], (24, 0, 20))
        self.assertEqual(m["other"], (16, 0, 8))
        self.assertEqual(m["named"], (48, 0, 4))
        self.assertEqual(m["named.a"], (48, 0, 4))
        self.assertEqual(m["get_send"], (56, 0, 8))
        self.assertEqual(m["stale_count"], (64, 0, 1))
        self.assertEqual(len(m), 10)

    def test_not_a_structure(self):
        self.assertIsNone(layout_check.parse(""))
        self.assertIsNone(layout_check.parse("pahole: type 'x' not found\n"))


class Compare(unittest.TestCase):
    def run_check(self, module_text, kernel_text):
        texts = {"btf": kernel_text, "dwarf": module_text}

        def fake(fmt, _path, _struct):
            return layout_check.parse(texts[fmt])

        with mock.patch.object(layout_check, "pahole", side_effect=fake):
            return layout_check.main(
                ["--kernel-btf", "vmlinux", "--struct", "mptcp_subflow_context", "m.ko"]
            )

    def test_same_layout_passes(self):
        self.assertEqual(self.run_check(SAMPLE, SAMPLE), 0)

    def test_a_shifted_member_is_refused(self):
        shifted = SAMPLE.replace("/*    64     1 */", "/*    65     1 */")
        self.assertEqual(self.run_check(shifted, SAMPLE), 1)

    def test_a_moved_bit_field_is_refused(self):
        moved = SAMPLE.replace("/*    16:19  4 */", "/*    16:20  4 */")
        self.assertEqual(self.run_check(moved, SAMPLE), 1)

    def test_a_member_the_kernel_lacks_is_refused(self):
        extra = SAMPLE.replace(
            "\tu8                         stale_count;",
            "\tu8                         mpqoe_shift;          /*    64     1 */\n"
            "\tu8                         stale_count;",
        )
        self.assertEqual(self.run_check(extra, SAMPLE), 1)

    def test_a_structure_missing_from_the_kernel_is_bad_usage(self):
        self.assertEqual(self.run_check(SAMPLE, ""), 2)


if __name__ == "__main__":
    unittest.main()
