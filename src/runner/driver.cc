#include "runner/driver.h"

#include <dlfcn.h>

namespace cutegen::runner {

std::string Driver::load() {
  void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) return std::string("no CUDA driver: ") + dlerror();
  std::string missing;
  // The versioned names are the ones cuda.h's macros select (cuStreamWaitValue32 is _v2, and so on).
  auto bind = [&](auto& fn, const char* name) {
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(lib, name));
    if (!fn) missing += std::string(missing.empty() ? "" : ", ") + name;
  };
  bind(Init, "cuInit");
  bind(DeviceGet, "cuDeviceGet");
  bind(DeviceGetName, "cuDeviceGetName");
  bind(DevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
  bind(CtxSetCurrent, "cuCtxSetCurrent");
  bind(StreamCreate, "cuStreamCreate");
  bind(StreamSynchronize, "cuStreamSynchronize");
  bind(StreamWaitValue32, "cuStreamWaitValue32_v2");
  bind(StreamWriteValue32, "cuStreamWriteValue32_v2");
  bind(EventCreate, "cuEventCreate");
  bind(EventRecord, "cuEventRecord");
  bind(EventElapsedTime, "cuEventElapsedTime_v2");
  bind(MemImportFromShareableHandle, "cuMemImportFromShareableHandle");
  bind(MemAddressReserve, "cuMemAddressReserve");
  bind(MemMap, "cuMemMap");
  bind(MemSetAccess, "cuMemSetAccess");
  bind(MemRelease, "cuMemRelease");
  bind(MemAlloc, "cuMemAlloc_v2");
  bind(MemsetD8Async, "cuMemsetD8Async");
  bind(MemHostRegister, "cuMemHostRegister_v2");
  bind(MemHostGetDevicePointer, "cuMemHostGetDevicePointer_v2");
  bind(GetErrorString, "cuGetErrorString");
  return missing.empty() ? "" : "libcuda.so.1 lacks " + missing;
}

std::string Driver::describe(const char* call, CUresult r) const {
  const char* text = nullptr;
  if (GetErrorString) GetErrorString(r, &text);
  return std::string(call) + ": " + (text ? text : "CUDA error " + std::to_string(static_cast<int>(r)));
}

}  // namespace cutegen::runner
