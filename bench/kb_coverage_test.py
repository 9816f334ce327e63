"""kb_coverage.py end to end: a problem folder holding our ReLU task as KernelBench's 19_ReLU (the
real binary recognizes it), its two recorded H200 answers (results/h200), and --picks choosing the
slower, older one over the fastest. Needs build/src/cutegen and the bridge's Python, no GPU."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
OLDER = os.path.join(ROOT, "results", "h200", "2026-11-30-expert-tma", "call2", "kb")  # 3.020 ms
NEWER = os.path.join(ROOT, "results", "h200", "2026-12-01d-expert-ln-two-reads", "call4", "expert")  # 2.949 ms


def coverage(kb, *args, dirs=(NEWER, OLDER)):
    r = subprocess.run([sys.executable, os.path.join(HERE, "kb_coverage.py"), *args, kb, "-", *dirs],
                       capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        raise AssertionError(r.stderr[-3000:])
    rows = [l for l in r.stdout.splitlines() if l.startswith("| level1/19_ReLU |")]
    return rows[0].split(" | "), r.stdout


class KbCoverageTest(unittest.TestCase):
    def test_the_fastest_answer_unless_a_pick_names_another(self):
        with tempfile.TemporaryDirectory() as d:
            kb = os.path.join(d, "level1")
            os.mkdir(kb)
            shutil.copy(os.path.join(ROOT, "tasks", "relu.py"), os.path.join(kb, "19_ReLU.py"))
            row, out = coverage(kb)
            self.assertEqual(row[2], "2.949", out)  # expert ms: the newer, faster answer
            self.assertIn("2026-12-01d-expert-ln-two-reads/call4/expert", row[8])
            self.assertIn("- level1: 1 accepted, 0 recognized, 0 declined", out)
            picks = os.path.join(d, "picks.tsv")
            with open(picks, "w") as f:
                f.write("# problem\tanswer\nlevel1/19_ReLU\t2026-11-30-expert-tma/call2/kb/19_ReLU\n")
            row, out = coverage(kb, "--picks", picks)
            self.assertEqual(row[2], "3.020", out)
            self.assertEqual(row[6], "1.01x")  # against that answer's own eager, 3.044 ms
            self.assertIn("2026-11-30-expert-tma/call2/kb", row[8])

    def test_newest_takes_the_first_folders_answer_and_the_counts_end_with_means(self):
        with tempfile.TemporaryDirectory() as d:
            kb = os.path.join(d, "level1")
            os.mkdir(kb)
            shutil.copy(os.path.join(ROOT, "tasks", "relu.py"), os.path.join(kb, "19_ReLU.py"))
            row, out = coverage(kb, "--newest", dirs=(OLDER, NEWER))
            self.assertEqual(row[2], "3.020", out)  # the first folder's, though slower
            self.assertIn("; measured: 1 of 1 correct; 1.01x eager over 1 (1 at or above it)", out)
            row, out = coverage(kb, "--newest", dirs=(NEWER, OLDER))
            self.assertEqual(row[2], "2.949", out)
            self.assertIn("1.03x eager over 1 (1 at or above it); 1.02x torch.compile over 1 (1 at or above it)", out)

    def test_torch_compile_from_the_calls_compile_column_where_the_answer_has_none(self):
        with tempfile.TemporaryDirectory() as d:
            kb = os.path.join(d, "level1")
            os.mkdir(kb)
            shutil.copy(os.path.join(ROOT, "tasks", "relu.py"), os.path.join(kb, "19_ReLU.py"))
            answers = os.path.join(d, "call", "kb")
            os.makedirs(answers)
            with open(os.path.join(OLDER, "19_ReLU.json")) as f:  # 3.020 ms, its torch.compile dropped
                doc = json.load(f)
            del doc["timing"]["compile"]
            with open(os.path.join(answers, "19_ReLU.json"), "w") as f:
                json.dump(doc, f)
            row, out = coverage(kb, dirs=(answers,))
            self.assertEqual(row[3], "—", out)
            with open(os.path.join(d, "call", "compile_column.jsonl"), "w") as f:
                f.write('{"task": ".kb/level1/19_ReLU.py", "error": "a failed line first"}\n')
                f.write('{"task": ".kb/level1/19_ReLU.py", "eager_ms": 3.05, "compile_ms": 3.11}\n')
            row, out = coverage(kb, dirs=(answers,))
            self.assertEqual(row[3], "3.110", out)
            self.assertEqual(row[7], "1.03x")
            self.assertIn("1.03x torch.compile over 1 (1 at or above it)", out)


if __name__ == "__main__":
    unittest.main()
