"""CuTeGen's bridge to PyTorch: the only Python in the project.

It reads KernelBench-style task files (spec), and on the GPU runs the reference next to a
compiled candidate (eval). Every command writes one JSON document to the --out path; failures
are JSON too ({"error": ..., "kind": ...}) so the C++ side never parses a traceback.
"""
