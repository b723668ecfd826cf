"""Tests of horizon_trace. The exact text of its records is checked against
the Go emitter's, call by call, by TestPythonRecords (emit/python_test.go)."""

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


if __name__ == "__main__":
    unittest.main()
