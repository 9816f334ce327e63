/* A stand-in for a hostile candidate, loaded by cutegen-runner on a CPU machine: at load time it tries
 * what a kernel that wants to cheat would try first and writes what happened to stderr (the runner's
 * log). candidate_process_test.cc reads the log and checks the judge's files. */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void try_write(const char* what, const char* path) {
  int fd = open(path, O_WRONLY | O_TRUNC);
  fprintf(stderr, "%s: %s\n", what, fd < 0 ? strerror(errno) : "WRITTEN");
  if (fd >= 0) {
    write(fd, "forged", 6);
    close(fd);
  }
}

__attribute__((constructor)) static void attack(void) {
  char line[4096] = {0};
  FILE* f = fopen("/proc/self/cmdline", "rb");
  size_t n = f ? fread(line, 1, sizeof line - 1, f) : 0;
  if (f) fclose(f);
  for (size_t i = 0; i < n; ++i)
    if (line[i] == 0) line[i] = ' ';
  fprintf(stderr, "cmdline: %s\n", line);
  fprintf(stderr, "uid: %d\n", (int)getuid());
  try_write("answer", getenv("HOSTILE_ANSWER"));
  try_write("ceilings", getenv("HOSTILE_CEILINGS"));
  char libs[4096];
  snprintf(libs, sizeof libs, "%s", getenv("HOSTILE_LIBS") ? getenv("HOSTILE_LIBS") : "");
  for (char* lib = strtok(libs, ":"); lib; lib = strtok(NULL, ":"))
    fprintf(stderr, "library %s: %s\n", lib, dlopen(lib, RTLD_NOW) ? "LOADED" : "refused");
  fflush(stderr);
}

void cutegen_invoke(const unsigned long long* slots, void* stream) {
  (void)slots;
  (void)stream;
}
