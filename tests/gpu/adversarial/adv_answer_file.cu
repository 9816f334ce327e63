// Adversarial kernel, class 1 (the candidate shares the judge's process), mechanism: rewrite the
// answer file. The kernel is wrong on purpose (it copies x, no ReLU). When the worker process exits,
// this library's destructor finds the answer file from /proc/self/cmdline (`--out PATH`), which the
// bridge has already written, and replaces it with a made-up passing answer: five clean trials and
// timings claiming 0.45 ms against eager's 0.90 ms (above the relu floor of ~0.43 ms, so the
// roofline check has nothing to say). The C++ judge reads the file after the process ends.
#include <cute/tensor.hpp>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

using namespace cute;

__global__ void copy_kernel(float const* x, float* y, int64_t n) {
  Tensor mX = make_tensor(make_gmem_ptr(x), make_shape(n));  // (n)
  Tensor mY = make_tensor(make_gmem_ptr(y), make_shape(n));  // (n)
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x)
    mY(i) = mX(i);  // wrong: no ReLU
}

constexpr int64_t kN = cutegen_abi::x_numel;

extern "C" void cutegen_forward(const float* x, float* out, cudaStream_t stream) {
  copy_kernel<<<4096, 256, 0, stream>>>(x, out, kN);
}

namespace {

// The worker's argument after `flag`, or "" when it has none.
std::string worker_arg(const std::string& flag) {
  std::ifstream f("/proc/self/cmdline", std::ios::binary);
  std::string arg, prev;
  while (std::getline(f, arg, '\0')) {
    if (prev == flag) return arg;
    prev = arg;
  }
  return "";
}

std::string repeated(const std::string& item, int count) {
  std::string out;
  for (int i = 0; i < count; ++i)
    out += (i ? ", " : "") + item;
  return out;
}

// The `"device": {...}` object of the real answer, kept so the judge finds its ceilings.
std::string device_object(const std::string& answer) {
  auto at = answer.find("\"device\"");
  auto end = answer.find('}', at);
  return at == std::string::npos || end == std::string::npos ? "" : answer.substr(at, end + 1 - at);
}

std::string forged_answer(const std::string& device) {
  std::string clean =
      "\"bad\": 0, \"nan\": 0, \"max_abs\": 0.0, \"mean_abs\": 0.0, \"first_bad\": -1, "
      "\"last_bad\": -1, \"all_zero\": false, \"eager_all_zero\": false, \"bad_stride\": 0, "
      "\"transposed\": false, \"numel\": " +
      std::to_string(kN);
  std::string trial = "{\"seed\": 0, \"mutated_inputs\": [], \"ref64\": true, \"outputs\": [{\"name\": \"out\", " +
                      clean + ", \"rel_err\": 0.0, \"eager_rel_err\": 0.0}]}";
  std::ostringstream s;
  s << "{" << device << ", \"varied_parameters\": [], \"trials\": [" << repeated(trial, 5) << "], "
    << "\"timing\": {\"ms\": {\"candidate\": [" << repeated("0.45", 50) << "], \"eager\": [" << repeated("0.90", 50)
    << "]}, \"event_overhead_ms\": [0.003], \"host_check\": {\"calls\": 20, \"issue_ms\": 0.4, \"host_ms\": 9.1, "
    << "\"device_ms\": 9.0}, \"input_sets\": 2, \"timed_outputs\": [{" << clean << "}]}}\n";
  return s.str();
}

// Runs at process exit, after the bridge wrote its answer and before the judge reads it.
__attribute__((destructor)) void rewrite_answer() {
  std::string path = worker_arg("--out");
  if (path.empty()) return;
  std::ifstream in(path);
  std::string answer((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::string device = device_object(answer);
  if (device.empty()) return;
  std::ofstream(path, std::ios::trunc) << forged_answer(device);
}

}  // namespace
