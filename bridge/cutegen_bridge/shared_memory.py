"""GPU buffers the judge shares with the candidate's process, and the host page they meet on.

Each buffer is an allocation of its own (cuMemCreate, exported as a POSIX file descriptor), so the
runner that maps it reaches that buffer and nothing else of the judge's: tensors from torch's caching
allocator share blocks, and a CUDA IPC handle exports a whole block. File descriptors, unlike IPC
handles, also cross to a process of another uid (the sandboxed runner runs as nobody).
"""
import ctypes
import mmap
import os

import torch

_FD_HANDLE = 1        # CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR
_PINNED = 1           # CU_MEM_ALLOCATION_TYPE_PINNED
_ON_DEVICE = 1        # CU_MEM_LOCATION_TYPE_DEVICE
_READ_WRITE = 3       # CU_MEM_ACCESS_FLAGS_PROT_READWRITE
_TYPESTR = {torch.float32: "<f4", torch.float16: "<f2", torch.bfloat16: "<i2", torch.float64: "<f8",
            torch.int64: "<i8", torch.int32: "<i4", torch.int16: "<i2", torch.int8: "|i1", torch.uint8: "|u1",
            torch.bool: "|b1"}


class _Location(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("id", ctypes.c_int)]


class _AllocFlags(ctypes.Structure):
    _fields_ = [("compressionType", ctypes.c_ubyte), ("gpuDirectRDMACapable", ctypes.c_ubyte),
                ("usage", ctypes.c_ushort), ("reserved", ctypes.c_ubyte * 4)]


class _Prop(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("requestedHandleTypes", ctypes.c_int), ("location", _Location),
                ("win32HandleMetaData", ctypes.c_void_p), ("allocFlags", _AllocFlags)]


class _Access(ctypes.Structure):
    _fields_ = [("location", _Location), ("flags", ctypes.c_int)]


class Driver:
    """The CUDA driver calls the judge makes itself (torch covers the rest)."""

    def __init__(self, device):
        torch.zeros(1, device="cuda")  # the primary context exists and is current
        self.cu = ctypes.CDLL("libcuda.so.1")
        self.device = device
        self.prop = _Prop(type=_PINNED, requestedHandleTypes=_FD_HANDLE, location=_Location(_ON_DEVICE, device))
        granularity = ctypes.c_size_t()
        self.check(self.cu.cuMemGetAllocationGranularity(ctypes.byref(granularity), ctypes.byref(self.prop), 0),
                   "cuMemGetAllocationGranularity")
        self.granularity = granularity.value

    @staticmethod
    def check(result, call):
        if result != 0:
            raise RuntimeError(f"CUDA driver error {result} in {call}")


class SharedBuffer:
    """`nbytes` of device memory in an allocation of its own; `view(...)` gives a torch tensor over it."""

    def __init__(self, driver, nbytes):
        cu, g = driver.cu, driver.granularity
        self.driver, self.nbytes = driver, max(g, -(-nbytes // g) * g)
        self.handle, self.ptr = ctypes.c_ulonglong(), ctypes.c_ulonglong()
        size = ctypes.c_size_t(self.nbytes)
        driver.check(cu.cuMemCreate(ctypes.byref(self.handle), size, ctypes.byref(driver.prop), ctypes.c_ulonglong(0)),
                     "cuMemCreate")
        driver.check(cu.cuMemAddressReserve(ctypes.byref(self.ptr), size, ctypes.c_size_t(0), ctypes.c_ulonglong(0),
                                            ctypes.c_ulonglong(0)), "cuMemAddressReserve")
        driver.check(cu.cuMemMap(self.ptr, size, ctypes.c_size_t(0), self.handle, ctypes.c_ulonglong(0)), "cuMemMap")
        access = _Access(location=_Location(_ON_DEVICE, driver.device), flags=_READ_WRITE)
        driver.check(cu.cuMemSetAccess(self.ptr, size, ctypes.byref(access), ctypes.c_size_t(1)), "cuMemSetAccess")

    def export_fd(self):
        """A new descriptor for the allocation; the caller sends and closes it."""
        fd = ctypes.c_int()
        self.driver.check(self.driver.cu.cuMemExportToShareableHandle(ctypes.byref(fd), self.handle, _FD_HANDLE,
                                                                      ctypes.c_ulonglong(0)),
                          "cuMemExportToShareableHandle")
        return fd.value

    def view(self, shape, strides, dtype):
        """A tensor over the start of the buffer (strides in elements, as torch counts them)."""
        item = torch.empty((), dtype=dtype).element_size()
        holder = _ArrayInterface(self.ptr.value, shape, [s * item for s in strides], _TYPESTR[dtype])
        t = torch.as_tensor(holder, device="cuda")
        return t.view(dtype) if dtype == torch.bfloat16 else t  # the interface has no bfloat16: int16 bits

    def free(self):
        cu, size = self.driver.cu, ctypes.c_size_t(self.nbytes)
        cu.cuMemUnmap(self.ptr, size)
        cu.cuMemAddressFree(self.ptr, size)
        cu.cuMemRelease(self.handle)


class _ArrayInterface:
    def __init__(self, ptr, shape, byte_strides, typestr):
        self.__cuda_array_interface__ = {"shape": tuple(shape), "strides": tuple(byte_strides), "typestr": typestr,
                                         "data": (ptr, False), "version": 3}


class HostPage:
    """One page of host memory both processes map: word 0 is `go` (the judge writes it), word 1 `done`
    (the runner's stream writes it). The judge's clock runs from writing go to seeing done."""

    def __init__(self):
        self.fd = os.memfd_create("cutegen-host-page")
        os.ftruncate(self.fd, mmap.PAGESIZE)
        self.map = mmap.mmap(self.fd, mmap.PAGESIZE)
        self.words = (ctypes.c_uint32 * 2).from_buffer(self.map)

    def export_fd(self):
        return os.dup(self.fd)
