"""Tests of horizon_trace: the exact records it writes."""

import io
import os
import tempfile
import unittest

import horizon_trace


class WriterTest(unittest.TestCase):
    def test_records(self):
        out = io.StringIO()
        w = horizon_trace.Writer(out, "Tiny 1", fail_hard=True, pseudo_legal=True)
        w.position("startpos")
        w.limits("depth 1")
        w.root(1, -100, 100, 1)
        w.move("e2e4", 0)
        w.enter("e2e4", 0, -100, 100)
        w.stand_pat(12)
        w.leave(12)
        w.extension(1)
        w.enter("0000", 0, -100, -99, kind="qs")
        w.leave(-5, bound="upper", cause="none", best="e7e5")
        w.leave(5)
        w.abort()
        w.end("e2e4", 3, time_ms=7)
        self.assertEqual(out.getvalue(), "\n".join([
            "HZT 1", "engine Tiny 1", "scores hard", "moves pseudo", "position startpos", "limits depth 1",
            "E - 1 -100 100 i=1", "M e2e4 0", "E e2e4 0 -100 100", "S 12", "L 12", "X 1",
            "E 0000 0 -100 -99 k=qs", "L -5 b=upper c=none m=e7e5", "L 5", "A", "end best=e2e4 nodes=3 time=7", ""]))

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
