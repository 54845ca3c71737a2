// Every NVTX form (NvtxProbeForms.h) and no CUDA at all: what `warpline record`'s NVTX tool
// records needs no GPU, and a program that only used NVTX still gets a trace.
#include "NvtxProbeForms.h"

int main() {
    nvtx_probe::useEveryNvtxForm([] {});
    return 0;
}
