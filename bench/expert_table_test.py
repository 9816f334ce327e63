"""expert_table.py's table and summary over real answers: results/h200/2026-12-03e-depthwise-compile
callC (level 2's 9-14 beside eager and torch.compile, all correct) and callA's depthwise 82, plus an
unreadable file and a failed verdict, which the summary must leave out of the means."""
import glob
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import expert_table  # noqa: E402

RUN = os.path.join(os.path.dirname(HERE), "results", "h200", "2026-12-03e-depthwise-compile")


class ExpertTableTest(unittest.TestCase):
    def test_summary_over_recorded_answers(self):
        paths = sorted(glob.glob(os.path.join(RUN, "callC", "expert", "*.json")))
        self.assertEqual(len(paths), 6)
        docs = [expert_table.load(p) for p in paths]
        # Speedups in the answers: eager 1.61 0.93 1.83 1.33 1.84 1.85, torch.compile 0.97 0.54 1.82
        # 1.16 1.83 1.83 (geometric means 1.52 and 1.25).
        self.assertEqual(expert_table.summary(docs),
                         "6 of 6 correct; 1.52x eager over 6 (5 at or above it); "
                         "1.25x torch.compile over 6 (4 at or above it)")

    def test_failed_and_unreadable_answers_stay_out_of_the_means(self):
        one = expert_table.load(
            os.path.join(RUN, "callA", "expert", "82_conv_depthwise_2D_square_input_square_kernel.json"))
        failed = dict(one, verdict="fail", summary="wrong: 12 of 100 elements")
        with tempfile.TemporaryDirectory() as d:
            broken = os.path.join(d, "broken.json")
            with open(broken, "w") as f:
                f.write("{")
            missing = expert_table.load(broken)
            self.assertIsInstance(missing, ValueError)
            self.assertIn("no answer (JSONDecodeError)", expert_table.row(broken, missing))
        self.assertEqual(expert_table.summary([one, failed, missing]),
                         "1 of 3 correct; 2.09x eager over 1 (1 at or above it); "
                         "1.60x torch.compile over 1 (1 at or above it)")
        self.assertIn("| fail: wrong: 12 of 100 elements |", expert_table.row("x.json", failed))


if __name__ == "__main__":
    unittest.main()
