"""`python -m cutegen_bridge COMMAND --out OUT.json ...`: one JSON document per run.

Each command is a module with `configure(parser)` and `run(args) -> dict`. A task that cannot be
used is an answer, not a crash: the document is {"error", "kind", "detail"} and the exit code 0.
Only a broken bridge (bad arguments, unwritable --out, a bug here) exits non-zero.
"""
import argparse
import importlib
import json
import os
import sys
import tempfile

from .task_file import TaskError, condensed_traceback

# name -> (module, one-line help): the subcommand table.
COMMANDS = {
    "spec": ("cutegen_bridge.spec", "describe a task (inputs, parameters, outputs, ops, FLOPs) as TaskSpec JSON"),
    "eval": ("cutegen_bridge.evaluate", "run a compiled candidate beside the reference on the GPU: check and time it"),
}


def write_json(path, doc):
    """Writes through a temporary file and rename, so the reader never sees half a document."""
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".cutegen-bridge-")
    with os.fdopen(fd, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    os.replace(tmp, path)


def first_line(text):
    lines = str(text).strip().splitlines()
    return lines[0] if lines else ""


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m cutegen_bridge")
    sub = parser.add_subparsers(dest="command", required=True)
    modules = {}
    for name, (module_name, help_text) in COMMANDS.items():
        p = sub.add_parser(name, help=help_text)
        p.add_argument("--out", required=True, help="where to write the JSON answer")
        modules[name] = importlib.import_module(module_name)
        modules[name].configure(p)
    args = parser.parse_args(argv)
    status = 0
    try:
        doc = modules[args.command].run(args)
    except TaskError as exc:
        doc = {"error": first_line(exc), "kind": exc.kind, "detail": exc.detail}
    except Exception as exc:  # a bug in the bridge itself: still answer, but say so by the exit code
        doc = {"error": f"bridge failed: {type(exc).__name__}: {first_line(exc)}", "kind": "internal",
               "detail": condensed_traceback(exc)}
        status = 1
    write_json(args.out, doc)
    return status


if __name__ == "__main__":
    sys.exit(main())
