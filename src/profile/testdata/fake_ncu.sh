#!/bin/sh
# Stands in for ncu in tests. FAKE_NCU_MODE picks the behaviour; each call appends a line to
# $FAKE_NCU_LOG so tests can count runs; FAKE_NCU_CAPTURE is the CSV printed on success.
[ -n "$FAKE_NCU_LOG" ] && echo "$*" >> "$FAKE_NCU_LOG"
case "$FAKE_NCU_MODE" in
  ok)
    cat "$FAKE_NCU_CAPTURE" ;;
  denied)
    echo "==PROF== Connected to process 4242 (/usr/bin/python3.12)"
    echo "==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access NVIDIA GPU Performance Counters on the target device 0."
    exit 1 ;;
  crash)
    echo "==PROF== Connected to process 4242 (/usr/bin/python3.12)"
    echo "==ERROR== The application returned an error code (11)."
    exit 11 ;;
  nokernels)
    echo "==PROF== Connected to process 4242 (/usr/bin/python3.12)"
    echo "==PROF== Disconnected from process 4242"
    echo "==WARNING== No kernels were profiled." ;;
  sleep)
    sleep 30 ;;
  *)
    echo "fake_ncu: unknown FAKE_NCU_MODE '$FAKE_NCU_MODE'" >&2
    exit 2 ;;
esac
