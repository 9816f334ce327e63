#!/usr/bin/env python3
"""A local stand-in for model servers, for tests: speaks OpenAI Chat Completions
(POST /v1/chat/completions) and the Anthropic Messages API (POST /v1/messages), each as plain
JSON or as a `stream: true` SSE stream, and misbehaves on request.

Usage: fixture_server.py [--openai-key KEY] [--anthropic-key KEY]
Binds 127.0.0.1 on a free port and prints the port as its first stdout line. Exits when its
stdin closes, so a crashed test leaves nothing behind.

Misbehaviour is chosen by a magic word in the first user message, `FIXTURE:<mode>` or
`FIXTURE:<mode>x<N>` (misbehave on the first N requests carrying that message, then answer):
  429      429 with Retry-After: 1          500      500 with an error body
  badjson  200 with a body that is not JSON  cut      the body stops halfway (stream or not)
  slow     the status line comes after 1 s  empty    an answer with no text
  truncate finish "length"/"max_tokens" until the conversation holds an assistant turn
  truncate-always   every answer is truncated
  spent    all output tokens go to reasoning unless the token limit is at least 2000
  needs-mct         (OpenAI) reject `max_tokens` like a reasoning model does
  overloaded        (Anthropic, streaming) an `error` event (overloaded_error) after message_start
Reasoning text is returned when the request asks for it (`reasoning_effort` / `thinking`).
The answer is "echo: <last user message>"; token counts are word counts; the system prompt's
words count as cached input.

Control: GET or POST /control/log returns every request seen ({path, headers, body}); POST
/control/reset clears the log and the misbehaviour counters.
"""
import argparse
import json
import re
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ARGS = None
LOCK = threading.Lock()
LOG = []
COUNTS = {}
MAGIC = re.compile(r"FIXTURE:([a-z0-9-]+?)(?:x(\d+))?(?:\s|$)")


def text_of(content):
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(p.get("text", "") for p in content if isinstance(p, dict))
    return ""


def words(s):
    return len(s.split())


class Plan:
    """What to do with one request: the mode in force (or None) and the answer's pieces."""

    def __init__(self, messages, system):
        users = [text_of(m.get("content")) for m in messages if m.get("role") == "user"]
        first = users[0] if users else ""
        self.last = users[-1] if users else ""
        self.has_assistant = any(m.get("role") == "assistant" for m in messages)
        self.mode = None
        m = MAGIC.search(first)
        if m:
            mode, n = m.group(1), m.group(2)
            with LOCK:
                key = (mode, first)
                COUNTS[key] = COUNTS.get(key, 0) + 1
                seen = COUNTS[key]
            if n is None or seen <= int(n):
                self.mode = mode
        self.cached = words(system)
        self.input = words(system) + sum(words(text_of(m.get("content"))) for m in messages)

    def answer(self, max_tokens, wants_reasoning):
        """(reasoning, text, truncated)"""
        reasoning = "Let me think about this." if wants_reasoning else ""
        if self.mode == "empty":
            return reasoning, "", False
        if self.mode == "spent" and max_tokens < 2000:
            return "I thought for a very long time and ran out.", "", True
        if self.mode == "truncate" and not self.has_assistant:
            return reasoning, "The answer begins", True
        if self.mode == "truncate":
            return reasoning, " and ends here.", False
        if self.mode == "truncate-always":
            return reasoning, "cut", True
        return reasoning, "echo: " + self.last, False


def pieces(s, n=3):
    """Splits s into about n parts, keeping every character."""
    if not s:
        return []
    step = max(1, len(s) // n)
    return [s[i:i + step] for i in range(0, len(s), step)]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"  # one request per connection; a stream ends at close

    def log_message(self, *args):
        pass

    # --- plumbing -------------------------------------------------------------------------

    def send_json(self, status, obj, headers=None):
        body = json.dumps(obj).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)

    def send_raw(self, status, body, length=None):
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(length if length is not None else len(body)))
        self.end_headers()
        self.wfile.write(body)
        self.wfile.flush()

    def start_stream(self, headers=None):
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()

    def sse(self, data, event=None):
        out = ""
        if event:
            out += "event: " + event + "\n"
        out += "data: " + (data if isinstance(data, str) else json.dumps(data)) + "\n\n"
        self.wfile.write(out.encode())
        self.wfile.flush()

    def do_GET(self):
        if self.path == "/control/log":
            with LOCK:
                return self.send_json(200, LOG)
        self.send_json(404, {"error": {"message": "no such path", "type": "not_found"}})

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length).decode("utf-8", "replace")
        if self.path == "/control/log":
            with LOCK:
                return self.send_json(200, LOG)
        if self.path == "/control/reset":
            with LOCK:
                LOG.clear()
                COUNTS.clear()
            return self.send_json(200, {"ok": True})
        with LOCK:
            LOG.append({"path": self.path, "headers": dict(self.headers.items()), "body": raw})
        try:
            body = json.loads(raw)
        except ValueError:
            return self.send_json(400, {"error": {"message": "request body is not JSON", "type": "invalid_request_error"}})
        if self.path == "/v1/chat/completions":
            return self.openai(body)
        if self.path == "/v1/messages":
            return self.anthropic(body)
        self.send_json(404, {"error": {"message": "no route for " + self.path, "type": "not_found"}})

    def common_misbehaviour(self, plan, error_429, error_500):
        """Handles the modes both protocols share; True when the request is answered."""
        if plan.mode == "slow":
            time.sleep(1.0)
        if plan.mode == "429":
            self.send_json(429, error_429, {"Retry-After": "1"})
            return True
        if plan.mode == "500":
            self.send_json(500, error_500)
            return True
        if plan.mode == "badjson":
            self.send_raw(200, b'{"id": "broken", "choices": [')
            return True
        return False

    # --- OpenAI Chat Completions ----------------------------------------------------------

    def openai(self, body):
        if ARGS.openai_key and self.headers.get("Authorization") != "Bearer " + ARGS.openai_key:
            return self.send_json(401, {"error": {"message": "Incorrect API key provided.", "type": "invalid_request_error",
                                                  "code": "invalid_api_key"}})
        messages = body.get("messages")
        if not isinstance(messages, list) or not body.get("model"):
            return self.send_json(400, {"error": {"message": "'model' and 'messages' are required", "type": "invalid_request_error"}})
        system = "".join(text_of(m.get("content")) for m in messages if m.get("role") in ("system", "developer"))
        convo = [m for m in messages if m.get("role") not in ("system", "developer")]
        plan = Plan(convo, system)
        if plan.mode == "needs-mct" and "max_tokens" in body:
            return self.send_json(400, {"error": {
                "message": "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
                "type": "invalid_request_error", "param": "max_tokens", "code": "unsupported_parameter"}})
        if self.common_misbehaviour(plan, {"error": {"message": "Rate limit reached for requests", "type": "requests",
                                                     "code": "rate_limit_exceeded"}},
                                    {"error": {"message": "The server had an error while processing your request.",
                                               "type": "server_error"}}):
            return
        max_tokens = body.get("max_completion_tokens", body.get("max_tokens", 4096))
        reasoning, text, truncated = plan.answer(max_tokens, "reasoning_effort" in body)
        finish = "length" if truncated else "stop"
        rid = "chatcmpl-fixture%d" % len(LOG)
        usage = {"prompt_tokens": plan.input, "completion_tokens": words(reasoning) + words(text),
                 "total_tokens": plan.input + words(reasoning) + words(text),
                 "prompt_tokens_details": {"cached_tokens": plan.cached},
                 "completion_tokens_details": {"reasoning_tokens": words(reasoning)}}
        headers = {"x-request-id": "req_openai_%d" % len(LOG)}
        created = int(time.time())
        if not body.get("stream"):
            message = {"role": "assistant", "content": text if text else None}
            if reasoning:
                message["reasoning_content"] = reasoning
            full = {"id": rid, "object": "chat.completion", "created": created, "model": body["model"],
                    "choices": [{"index": 0, "message": message, "logprobs": None, "finish_reason": finish}],
                    "usage": usage}
            if plan.mode == "cut":
                data = json.dumps(full).encode()
                return self.send_raw(200, data[: len(data) // 2], length=len(data))
            return self.send_json(200, full, headers)

        def chunk(delta, finish_reason=None):
            return {"id": rid, "object": "chat.completion.chunk", "created": created, "model": body["model"],
                    "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish_reason}]}

        self.start_stream(headers)
        self.sse(chunk({"role": "assistant", "content": ""}))
        for p in pieces(reasoning):
            self.sse(chunk({"reasoning_content": p}))
        text_pieces = pieces(text)
        for i, p in enumerate(text_pieces):
            if plan.mode == "cut" and i == len(text_pieces) // 2:
                return  # the connection closes mid-answer
            self.sse(chunk({"content": p}))
        self.sse(chunk({}, finish))
        if (body.get("stream_options") or {}).get("include_usage"):
            self.sse({"id": rid, "object": "chat.completion.chunk", "created": created, "model": body["model"],
                      "choices": [], "usage": usage})
        self.sse("[DONE]")

    # --- Anthropic Messages ---------------------------------------------------------------

    def anthropic_error(self, status, kind, message):
        self.send_json(status, {"type": "error", "error": {"type": kind, "message": message}})

    def anthropic(self, body):
        key = self.headers.get("x-api-key")
        if not key:
            return self.anthropic_error(401, "authentication_error", "x-api-key header is required")
        if ARGS.anthropic_key and key != ARGS.anthropic_key:
            return self.anthropic_error(401, "authentication_error", "invalid x-api-key")
        if not self.headers.get("anthropic-version"):
            return self.anthropic_error(400, "invalid_request_error", "anthropic-version: header is required")
        messages = body.get("messages")
        if not isinstance(messages, list) or not body.get("model") or not isinstance(body.get("max_tokens"), int):
            return self.anthropic_error(400, "invalid_request_error", "model, messages and max_tokens are required")
        thinking = body.get("thinking") or {}
        if thinking.get("type") == "enabled" and thinking.get("budget_tokens", 0) >= body["max_tokens"]:
            return self.anthropic_error(400, "invalid_request_error", "max_tokens must be greater than thinking.budget_tokens")
        system = text_of(body.get("system", ""))
        plan = Plan(messages, system)
        if self.common_misbehaviour(plan, {"type": "error", "error": {"type": "rate_limit_error", "message": "Rate limited"}},
                                    {"type": "error", "error": {"type": "api_error", "message": "Internal server error"}}):
            return
        reasoning, text, truncated = plan.answer(body["max_tokens"], thinking.get("type") == "enabled")
        stop = "max_tokens" if truncated else "end_turn"
        mid = "msg_fixture%d" % len(LOG)
        headers = {"request-id": "req_anthropic_%d" % len(LOG)}
        fresh = plan.input - plan.cached
        out_tokens = words(reasoning) + words(text)
        usage = {"input_tokens": fresh, "output_tokens": out_tokens, "cache_read_input_tokens": plan.cached,
                 "cache_creation_input_tokens": 0}
        blocks = []
        if reasoning:
            blocks.append({"type": "thinking", "thinking": reasoning, "signature": "sig-fixture"})
        if text:
            blocks.append({"type": "text", "text": text})
        if not body.get("stream"):
            full = {"id": mid, "type": "message", "role": "assistant", "model": body["model"], "content": blocks,
                    "stop_reason": stop, "stop_sequence": None, "usage": usage}
            if plan.mode == "cut":
                data = json.dumps(full).encode()
                return self.send_raw(200, data[: len(data) // 2], length=len(data))
            return self.send_json(200, full, headers)

        self.start_stream(headers)
        start_usage = dict(usage, output_tokens=1)
        self.sse({"type": "message_start", "message": {"id": mid, "type": "message", "role": "assistant", "content": [],
                                                       "model": body["model"], "stop_reason": None,
                                                       "stop_sequence": None, "usage": start_usage}}, "message_start")
        if plan.mode == "overloaded":
            return self.sse({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}, "error")
        index = 0
        if reasoning:
            self.sse({"type": "content_block_start", "index": index,
                      "content_block": {"type": "thinking", "thinking": "", "signature": ""}}, "content_block_start")
            for p in pieces(reasoning):
                self.sse({"type": "content_block_delta", "index": index,
                          "delta": {"type": "thinking_delta", "thinking": p}}, "content_block_delta")
            self.sse({"type": "content_block_delta", "index": index,
                      "delta": {"type": "signature_delta", "signature": "sig-fixture"}}, "content_block_delta")
            self.sse({"type": "content_block_stop", "index": index}, "content_block_stop")
            index += 1
        self.sse({"type": "ping"}, "ping")
        if text:
            self.sse({"type": "content_block_start", "index": index, "content_block": {"type": "text", "text": ""}},
                     "content_block_start")
            text_pieces = pieces(text)
            for i, p in enumerate(text_pieces):
                if plan.mode == "cut" and i == len(text_pieces) // 2:
                    return
                self.sse({"type": "content_block_delta", "index": index, "delta": {"type": "text_delta", "text": p}},
                         "content_block_delta")
            self.sse({"type": "content_block_stop", "index": index}, "content_block_stop")
        self.sse({"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None},
                  "usage": {"output_tokens": out_tokens}}, "message_delta")
        self.sse({"type": "message_stop"}, "message_stop")


def main():
    global ARGS
    parser = argparse.ArgumentParser()
    parser.add_argument("--openai-key", default="")
    parser.add_argument("--anthropic-key", default="")
    ARGS = parser.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print(server.server_address[1], flush=True)

    def watch_stdin():
        sys.stdin.read()
        server.shutdown()

    threading.Thread(target=watch_stdin, daemon=True).start()
    server.serve_forever()


if __name__ == "__main__":
    main()
