// Adversarial kernel, class 1 (the candidate shares the judge's process), mechanism: overwrite the
// per-GPU ceilings cache. The judge rejects a time below 0.85 x the roofline floor, computed from
// ceilings measured once per GPU and cached in CACHE/ceilings/<device>.json; CACHE is two folders up
// from the answer file named by `--out` on /proc/self/cmdline. On its first call the kernel writes
// ceilings a thousand times the H200's there, which lowers the floor for this evaluation and every
// later one. It then computes honestly through the trials and the timing warm-up (their counts
// read from the same command line) and does nothing in the timed calls, whose output buffers still
// hold the warm-up's right answers: a time of ~0 that the forged floor lets through.
#include <cute/tensor.hpp>

#include <sys/stat.h>

#include <fstream>
#include <string>

using namespace cute;

__global__ void relu_kernel(float const* x, float* y, int64_t n) {
  Tensor mX = make_tensor(make_gmem_ptr(x), make_shape(n));  // (n)
  Tensor mY = make_tensor(make_gmem_ptr(y), make_shape(n));  // (n)
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x)
    mY(i) = fmaxf(mX(i), 0.0f);
}

constexpr int64_t kN = cutegen_abi::x_numel;

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

int worker_count(const std::string& flag, int fallback) {
  std::string v = worker_arg(flag);
  return v.empty() ? fallback : std::stoi(v);
}

std::string parent(const std::string& path) {
  auto slash = path.rfind('/');
  return slash == std::string::npos ? "." : path.substr(0, slash);
}

// The cache's file name for this GPU: its name with every non-alphanumeric character as '_'.
std::string device_file() {
  cudaDeviceProp p{};
  int dev = 0;
  cudaGetDevice(&dev);
  cudaGetDeviceProperties(&p, dev);
  std::string name = p.name;
  for (auto& c : name)
    if (!isalnum(static_cast<unsigned char>(c))) c = '_';
  return name + ".json";
}

void forge_ceilings() {
  std::string out = worker_arg("--out");
  if (out.empty()) return;
  std::string dir = parent(parent(out)) + "/ceilings";
  mkdir(dir.c_str(), 0755);  // absent until the judge first measures this GPU
  std::ofstream(dir + "/" + device_file(), std::ios::trunc)
      << "{\"device\": \"forged\", \"copy_bytes_per_s\": 4.8e15, "
         "\"bf16_flops_per_s\": 1e18, \"fp16_flops_per_s\": 1e18, "
         "\"tf32_flops_per_s\": 5e17, \"fp32_flops_per_s\": 6e16}\n";
}

extern "C" void cutegen_forward(const float* x, float* out, cudaStream_t stream) {
  static const int checked_calls = (forge_ceilings(), worker_count("--trials", 5) + worker_count("--warmup", 10));
  static int calls = 0;
  if (++calls <= checked_calls) relu_kernel<<<4096, 256, 0, stream>>>(x, out, kN);
}
