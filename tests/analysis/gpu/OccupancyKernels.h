#pragma once

#include <string>
#include <vector>

namespace wl::test::gpu {

// A kernel of OccupancyKernels.cu, as the runtime's occupancy API takes it.
struct KernelHandle {
    std::string name;
    const void* function = nullptr;
};

const std::vector<KernelHandle>& occupancyKernels();

}  // namespace wl::test::gpu
