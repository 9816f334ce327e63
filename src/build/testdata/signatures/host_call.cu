// Device code calling a plain (host-only) helper function.
float twice(float x) { return 2.0f * x; }

__global__ void scale(float* p) { p[threadIdx.x] = twice(p[threadIdx.x]); }
