// cuBLAS is opened when a run first needs it, not linked; this checks, without a GPU, that the
// library found is one the power iteration can use.
#include <gtest/gtest.h>

#include <string>

#include "workloads/CublasLibrary.h"

namespace wl::workloads {
namespace {

TEST(CublasLibrary, LoadsOnceAndResolvesEveryFunction) {
    const auto library = cublasLibrary();
    ASSERT_TRUE(library.ok()) << library.error().message;
    const CublasLibrary& cublas = **library;
    EXPECT_NE(cublas.create, nullptr);
    EXPECT_NE(cublas.destroy, nullptr);
    EXPECT_NE(cublas.setStream, nullptr);
    EXPECT_NE(cublas.dgemv, nullptr);
    ASSERT_NE(cublas.statusString, nullptr);
    // Callable without a device: the error text of a failed call comes from here.
    EXPECT_NE(std::string(cublas.statusString(CUBLAS_STATUS_NOT_INITIALIZED)).find("initialized"),
              std::string::npos);
    // Asked again, the same library.
    const auto again = cublasLibrary();
    ASSERT_TRUE(again.ok());
    EXPECT_EQ(*again, *library);
}

}  // namespace
}  // namespace wl::workloads
