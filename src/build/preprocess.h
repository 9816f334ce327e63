// Preprocesses a candidate exactly as a build compiles it: the same nvcc, harness flags and
// force-included header, through the preprocessor commands nvcc itself would run (`--dryrun`):
// one host pass and one device pass per target architecture, macros and token pasting expanded.
#pragma once

#include <string>
#include <vector>

#include "build/builder.h"
#include "core/result.h"

namespace cutegen {

struct PreprocessedPass {
  std::string name;  // "host" or "device" (the device pass defines __CUDA_ARCH__)
  std::string text;  // the whole translation unit, with `# N "file"` line markers
};

struct Preprocessed {
  bool ok = false;
  std::string source_path;  // how the line markers name the candidate's own file
  std::vector<PreprocessedPass> passes;
  std::string message;  // why preprocessing failed (the compile would fail the same way)
};

// Errors are setup problems only (no nvcc, unwritable temp dir); a source nvcc cannot preprocess
// is a Preprocessed with ok == false.
Result<Preprocessed> preprocess(const Builder& builder, const BuildRequest& req);

}  // namespace cutegen
