// Kernel texts of the row-normalization template, one per strategy (each in rownorm_<strategy>.cc).
#pragma once

namespace cutegen {

// Last dim, rows streamed through 128-bit tiled copies: one block per row (split = 1) or a row cut
// over `split` blocks with a second pass combining partial statistics through a workspace.
extern const char* const kRowNormStreamed;
// Last dim, a row held in the shared memory of a group of CTAs (a thread-block cluster, or `split`
// CTAs of a cooperative grid) and read from DRAM once.
extern const char* const kRowNormHeld;
// Last dim, a long row held in the registers of a group of CTAs of a cooperative grid, read once.
extern const char* const kRowNormGrid;
// Last dim, short rows: a block (a warp or more) per row, the row held in registers.
extern const char* const kRowNormRegisters;
// A middle dim: one thread per column.
extern const char* const kRowNormColumns;

}  // namespace cutegen
