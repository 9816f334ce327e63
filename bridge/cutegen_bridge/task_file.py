"""Loading a KernelBench problem file: `class Model(nn.Module)`, `get_inputs()`, `get_init_inputs()`."""
import importlib.util
import os
import sys
import traceback


class TaskError(Exception):
    """A task file that cannot be used; the message is one line, `detail` the condensed cause,
    `kind` a short machine-readable category (import, no_model, no_tensors, forward, ...)."""

    def __init__(self, message, detail="", kind="task"):
        super().__init__(message)
        self.detail = detail
        self.kind = kind


BRIDGE_DIR = os.path.dirname(os.path.abspath(__file__))


def condensed_traceback(exc, limit=6):
    """The last frames of a traceback, as a few lines (what a user or an LLM can act on).
    The bridge's own frames and importlib's are left out: they are never the task's fault."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__)
              if not f.filename.startswith((BRIDGE_DIR, "<frozen"))]
    lines = traceback.format_list(frames[-limit:]) + traceback.format_exception_only(type(exc), exc)
    return "".join(lines).rstrip()


def load_task(path):
    """Imports the file as a fresh module and checks that it defines the three names."""
    spec = importlib.util.spec_from_file_location("cutegen_task", path)
    if spec is None or spec.loader is None:
        raise TaskError(f"{path}: not a Python file", kind="not_python")
    module = importlib.util.module_from_spec(spec)
    sys.modules["cutegen_task"] = module
    try:
        spec.loader.exec_module(module)
    except FileNotFoundError:
        raise TaskError(f"{path}: no such file", kind="not_found")
    except Exception as exc:  # the user's code: any failure is reported, never raised on
        raise TaskError(f"{path}: fails to import: {type(exc).__name__}: {exc}", condensed_traceback(exc), kind="import")
    for name in ("Model", "get_inputs", "get_init_inputs"):
        if not hasattr(module, name):
            raise TaskError(f"{path}: defines no `{name}` (a KernelBench task needs Model, get_inputs, get_init_inputs)",
                            kind="no_model" if name == "Model" else "not_a_task")
    return module


def call_user(what, fn, *args, kind="user_code"):
    """Runs user code, turning any exception into a TaskError that says which step failed."""
    try:
        return fn(*args)
    except TaskError:
        raise
    except Exception as exc:
        raise TaskError(f"{what} failed: {type(exc).__name__}: {exc}", condensed_traceback(exc), kind)
