"""Unit tests of content/gen_content.py's parameters and cache key (encoding itself is exercised by
the integration test, which fails if a representation misses its nominal bitrate)."""

import os
import tempfile
import unittest

import gen_content as gc


def params(*argv):
    return gc.params_of(gc.build_parser().parse_args(list(argv)))


class Params(unittest.TestCase):
    def test_defaults_are_the_papers(self):
        ga = params("--set", "ga")
        self.assertEqual([r["kbps"] for r in ga["representations"]], [1500, 2000, 2500, 2600])
        self.assertEqual((ga["duration"], ga["segment"]), (540, 4))
        q = params("--set", "qomra")
        self.assertEqual([r["kbps"] for r in q["representations"]], [325, 725, 1000, 2500, 5000])
        self.assertEqual(q["segment"], 6)
        self.assertTrue(all((r["width"], r["height"]) == (320, 180) for r in q["representations"]))
        nominal = params("--set", "qomra", "--resolution", "nominal")
        self.assertEqual(
            [r["height"] for r in nominal["representations"]], [240, 360, 480, 720, 1080]
        )

    def test_bad_values(self):
        for argv in (
            ("--segment", "0"),
            ("--duration", "-1"),
            ("--duration", "4", "--segment", "6"),
            ("--segment", "0.01"),
        ):
            with self.subTest(argv=argv), self.assertRaises(gc.UsageError):
                params(*argv)

    def test_cache_key_changes_with_every_parameter(self):
        base = params("--set", "ga", "--duration", "20", "--segment", "2")
        keys = {
            gc.key_of(base, "ffmpeg 5.1"),
            gc.key_of(base, "ffmpeg 6.0"),
            gc.key_of(params("--set", "ga", "--duration", "21", "--segment", "2"), "ffmpeg 5.1"),
            gc.key_of(params("--set", "ga", "--duration", "20", "--segment", "4"), "ffmpeg 5.1"),
            gc.key_of(params("--set", "qomra", "--duration", "20", "--segment", "2"), "ffmpeg 5.1"),
        }
        self.assertEqual(len(keys), 5)
        self.assertEqual(gc.key_of(base, "ffmpeg 5.1"), gc.key_of(dict(base), "ffmpeg 5.1"))

    def test_cli_usage_error_exit_2_writes_nothing(self):
        with tempfile.TemporaryDirectory() as d:
            cache = os.path.join(d, "cache")
            self.assertEqual(gc.main(["--set", "nope", "--cache", cache]), 2)
            self.assertEqual(gc.main(["--segment", "0", "--cache", cache]), 2)
            self.assertFalse(os.path.exists(cache))


if __name__ == "__main__":
    unittest.main()
