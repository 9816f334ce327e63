// A file-scope constant named like one of CuTe's short names (cute::C) under `using namespace cute;`.
#include <cute/tensor.hpp>

using namespace cute;

constexpr int C = 64;

__global__ void channels(float* p) { p[threadIdx.x % C] = 0.0f; }
