// libcurl behind HttpTransport. One easy handle per request: calls are seconds to minutes long,
// so connection reuse buys nothing worth the shared state.
#include <curl/curl.h>

#include <cstdlib>
#include <mutex>

#include "core/strings.h"
#include "llm/http.h"

namespace cutegen {
namespace {

struct Exchange {
  CURL* curl;
  HttpResponse* resp;
  const BodySink* sink;
};

size_t on_header(char* data, size_t size, size_t n, void* user) {
  auto* x = static_cast<Exchange*>(user);
  std::string_view line(data, size * n);
  if (line.starts_with("HTTP/")) x->resp->headers.clear();  // a new response (after 100-continue)
  auto colon = line.find(':');
  if (colon != std::string_view::npos)
    x->resp->headers[lowercase(trim(line.substr(0, colon)))] = trim(line.substr(colon + 1));
  return size * n;
}

size_t on_body(char* data, size_t size, size_t n, void* user) {
  auto* x = static_cast<Exchange*>(user);
  std::string_view chunk(data, size * n);
  if (x->resp->status == 0) {
    long code = 0;
    curl_easy_getinfo(x->curl, CURLINFO_RESPONSE_CODE, &code);
    x->resp->status = static_cast<int>(code);
  }
  x->resp->body.append(chunk);
  if (*x->sink) (*x->sink)(x->resp->status, chunk);
  return size * n;
}

// Loopback never goes through a proxy (a CI's http_proxy must not swallow local servers); the
// user's own no_proxy entries are kept.
std::string no_proxy_list() {
  std::string list = "127.0.0.1,localhost,::1";
  for (const char* var : {"no_proxy", "NO_PROXY"})
    if (const char* v = std::getenv(var); v && *v) return list + "," + v;
  return list;
}

class CurlTransport : public HttpTransport {
 public:
  CurlTransport() {
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
  }

  Result<HttpResponse> post(const HttpRequest& req, const BodySink& sink) override {
    CURL* curl = curl_easy_init();
    if (!curl) return error("cannot initialise libcurl");
    HttpResponse resp;
    Exchange x{curl, &resp, &sink};
    curl_slist* headers = nullptr;
    for (auto& [k, v] : req.headers)
      headers = curl_slist_append(headers, (k + ": " + v).c_str());
    headers = curl_slist_append(headers, "Expect:");  // no 100-continue round trip
    char errbuf[CURL_ERROR_SIZE] = {0};
    curl_easy_setopt(curl, CURLOPT_URL, req.url.c_str());
    curl_easy_setopt(curl, CURLOPT_POST, 1L);
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, req.body.data());
    curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(req.body.size()));
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, static_cast<long>(req.timeout.count()));
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(req.connect_timeout.count()));
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    std::string no_proxy = no_proxy_list();
    curl_easy_setopt(curl, CURLOPT_NOPROXY, no_proxy.c_str());
    curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, errbuf);
    curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(curl, CURLOPT_HEADERDATA, &x);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &x);
    CURLcode rc = curl_easy_perform(curl);
    long code = 0;
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &code);
    curl_slist_free_all(headers);
    curl_easy_cleanup(curl);
    if (rc != CURLE_OK) {
      std::string why = *errbuf ? errbuf : curl_easy_strerror(rc);
      // The URL names the host; it never carries a key (keys go in headers only).
      return error("cannot reach " + req.url + ": " + why);
    }
    resp.status = static_cast<int>(code);
    return resp;
  }
};

}  // namespace

std::shared_ptr<HttpTransport> make_curl_transport() { return std::make_shared<CurlTransport>(); }

}  // namespace cutegen
