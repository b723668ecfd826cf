"""Tests of horizon_trace. The exact text of its records is checked against
the Go emitter's, call by call, by TestPythonRecords (emit/python_test.go)."""

import io
import os
import tempfile
import unittest

import horizon_trace


class WriterTest(unittest.TestCase):
    def test_env(self):
        os.environ.pop(horizon_trace.ENV_VAR, None)
        self.assertIsNone(horizon_trace.from_env("x"))
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "s.hzt")
            os.environ[horizon_trace.ENV_VAR] = path
            try:
                w = horizon_trace.from_env("Env\nEngine")
                w.end()
                w.close()
            finally:
                del os.environ[horizon_trace.ENV_VAR]
            with open(path) as f:
                self.assertEqual(f.read(), "HZT 1\nengine Env Engine\nscores soft\nend\n")

    def test_integers(self):
        # "%d" wrote an engine's pawn-unit 0.7 as 0, without a word.
        out = io.StringIO()
        w = horizon_trace.Writer(out)
        w.root(2.0, -100, 100.0)
        w.leave(12.0)
        self.assertEqual(out.getvalue(), "HZT 1\nscores soft\nE - 2 -100 100\nL 12\n")
        for call in (lambda: w.leave(0.7), lambda: w.enter("e2e4", 1, -0.5, 0.5),
                     lambda: w.stand_pat("30"), lambda: w.root(1.5, 0, 1)):
            with self.assertRaisesRegex(ValueError, "is not an integer"):
                call()
        self.assertEqual(out.getvalue(), "HZT 1\nscores soft\nE - 2 -100 100\nL 12\n")


if __name__ == "__main__":
    unittest.main()
