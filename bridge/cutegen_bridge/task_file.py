"""Loading a KernelBench problem file: `class Model(nn.Module)`, `get_inputs()`, `get_init_inputs()`."""
import importlib.util
import sys
import traceback


class TaskError(Exception):
    """A task file that cannot be used; the message is one line, `detail` the condensed cause."""

    def __init__(self, message, detail=""):
        super().__init__(message)
        self.detail = detail


def condensed_traceback(exc, limit=6):
    """The last frames of a traceback, as a few lines (what a user or an LLM can act on)."""
    lines = traceback.format_exception(type(exc), exc, exc.__traceback__)
    text = "".join(lines).strip().splitlines()
    return "\n".join(text[-limit * 2:])


def load_task(path):
    """Imports the file as a fresh module and checks that it defines the three names."""
    spec = importlib.util.spec_from_file_location("cutegen_task", path)
    if spec is None or spec.loader is None:
        raise TaskError(f"{path}: not a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules["cutegen_task"] = module
    try:
        spec.loader.exec_module(module)
    except FileNotFoundError:
        raise TaskError(f"{path}: no such file")
    except Exception as exc:  # the user's code: any failure is reported, never raised on
        raise TaskError(f"{path}: fails to import: {type(exc).__name__}: {exc}", condensed_traceback(exc))
    for name in ("Model", "get_inputs", "get_init_inputs"):
        if not hasattr(module, name):
            raise TaskError(f"{path}: defines no `{name}` (a KernelBench task needs Model, get_inputs, get_init_inputs)")
    return module


def call_user(what, fn, *args):
    """Runs user code, turning any exception into a TaskError that says which step failed."""
    try:
        return fn(*args)
    except TaskError:
        raise
    except Exception as exc:
        raise TaskError(f"{what} failed: {type(exc).__name__}: {exc}", condensed_traceback(exc))
