// Non-finite constants are constant expressions, and a clashing name got a suffix.
static_assert(cutegen_abi::limit < 0 && cutegen_abi::act_double != cutegen_abi::act_double);
static_assert(cutegen_abi::a_b_numel == 1 && cutegen_abi::a_b_numel_2 == 9);
extern "C" void cutegen_forward(const uint8_t* int_, int64_t _0start, const bool* a_b, const double* a_b_2,
                                const int32_t* blocks_0_weight, int8_t* out, cudaStream_t stream) {}
