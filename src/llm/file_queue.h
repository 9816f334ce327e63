// The file backend's queue folder: for each prompt (keyed by its hash)
//   <queue>/<key>.prompt.md   written by cutegen: the prompt as plain text
//   <queue>/<key>.answer.md   written by whoever answers (a batch job, a person, an air-gapped
//                             host); write it under another name and rename it into place
//   <queue>/<key>.error.md    optional: the answerer gives up; its text becomes the error
// An answer file that exists and is not blank answers the call.
#pragma once

#include <string>

namespace cutegen {

struct QueueFiles {
  std::string prompt;
  std::string answer;
  std::string error;
};

QueueFiles queue_files(const std::string& queue_dir, const std::string& key);

}  // namespace cutegen
