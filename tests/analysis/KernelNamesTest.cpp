#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "analysis/KernelNames.h"

namespace wl::analysis {
namespace {

// Kernel names as real producers wrote them: CUPTI through Warpline's own samples
// (resources/samples), Kineto/HTA traces (shared/external-traces), and the Numba and CuPy names
// quoted in issue 11. Each with its short name and its library ("" = the user's own code).
struct NamedKernel {
    std::string_view full;
    std::string_view shortName;
    std::string_view library;
};

constexpr NamedKernel kRealNames[] = {
    // Warpline's power sample: cuBLAS DGEMV
    {"std::enable_if<!(false), void>::type internal::gemvx::kernel<int, int, double, doubl"
     "e, double, double, false, true, true, false, 7, false, cublasGemvParamsEx<int, cubla"
     "sGemvTensorStridedBatched<double const>, cublasGemvTensorStridedBatched<double const"
     ">, cublasGemvTensorStridedBatched<double>, double> >(cublasGemvParamsEx<int, cublasG"
     "emvTensorStridedBatched<double const>, cublasGemvTensorStridedBatched<double const>,"
     " cublasGemvTensorStridedBatched<double>, double>)",
     "gemvx::kernel", "cuBLAS"},
    // HTA sampled trace: SGEMV
    {"std::enable_if<!(false), void>::type internal::gemvx::kernel<int, int, float, float,"
     " float, float, false, true, true, false, 7, cublasGemvParams<cublasGemvTensorStrided"
     "Batched<float const>, cublasGemvTensorStridedBatched<float const>, cublasGemvTensorS"
     "tridedBatched<float>, float> >(cublasGemvParams<cublasGemvTensorStridedBatched<float"
     " const>, cublasGemvTensorStridedBatched<float const>, cublasGemvTensorStridedBatched"
     "<float>, float>)",
     "gemvx::kernel", "cuBLAS"},
    // HTA sampled trace
    {"void gemvNSP_kernel<float, float, float, float, 1, 32, 4, 1024, cublasGemvParams<cub"
     "lasGemvTensorStridedBatched<float const>, cublasGemvTensorStridedBatched<float const"
     ">, cublasGemvTensorStridedBatched<float>, float> >(cublasGemvParams<cublasGemvTensor"
     "StridedBatched<float const>, cublasGemvTensorStridedBatched<float const>, cublasGemv"
     "TensorStridedBatched<float>, float>)",
     "gemvNSP_kernel", "cuBLAS"},
    // PARAM DLRM
    {"void gemmk1_kernel<int, float, 256, 5, false, false, false, false, cublasGemvTensorS"
     "tridedBatched<float const>, cublasGemvTensorStridedBatched<float const>, cublasGemvT"
     "ensorStridedBatched<float>, float, 0>(cublasGemmk1Params<float, cublasGemvTensorStri"
     "dedBatched<float const>, cublasGemvTensorStridedBatched<float const>, cublasGemvTens"
     "orStridedBatched<float>, float, biasType<cublasGemvTensorStridedBatched<float>::valu"
     "e_type, float>::type>)",
     "gemmk1_kernel", "cuBLAS"},
    // Kineto ResNet-50
    {"void splitKreduce_kernel<float, float, float>(cublasSplitKParams<float>, float const"
     "*, float const*, float*, float const*, float const*)",
     "splitKreduce_kernel", "cuBLAS"},
    // HTA NCCL trace (cuBLASLt)
    {"void cublasLt::splitKreduce_kernel<32, 16, int, float, float, float, float, true, tr"
     "ue, false>(cublasLt::cublasSplitKParams<float>, float const*, float const*, float*, "
     "float const*, float const*, float const*, float const*, float*, void*, long, float*,"
     " int*)",
     "splitKreduce_kernel", "cuBLAS"},
    // HTA AlexNet (cuBLASLt epilogue)
    {"void epilogue::impl::globalKernel<float, float, float, true, true>(int, int, long, f"
     "loat*, cublasLtEpilogue_t, int, float*, long, void*, long, long, long, float*, long,"
     " int*)",
     "globalKernel", "cuBLAS"},
    // HTA
    {"volta_sgemm_128x64_nt", "volta_sgemm_128x64_nt", "cuBLAS"},
    // HTA
    {"ampere_sgemm_128x64_nn", "ampere_sgemm_128x64_nn", "cuBLAS"},
    // HTA sampled trace
    {"void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_64x64_16x6_nt_align4>(cutlass_80_"
     "tensorop_s1688gemm_64x64_16x6_nt_align4::Params)",
     "cutlass::Kernel<cutlass_80_tensorop_s1688gemm_64x64_16x6_nt_align4>", "CUTLASS"},
    // HTA NCCL trace: cuDNN's own CUTLASS
    {"void cutlass_cudnn_train::Kernel<cutlass_cudnn_train::reduction::kernel::ReduceSplit"
     "K<cutlass_cudnn_train::MatrixShape<4, 128>, cutlass_cudnn_train::epilogue::thread::L"
     "inearCombination<float, 4, float, float, (cutlass_cudnn_train::epilogue::thread::Sca"
     "leType::Kind)0, (cutlass_cudnn_train::FloatRoundStyle)2>, cutlass_cudnn_train::reduc"
     "tion::thread::ReduceAdd<float, float, 4>, 4> >(cutlass_cudnn_train::reduction::kerne"
     "l::ReduceSplitK<cutlass_cudnn_train::MatrixShape<4, 128>, cutlass_cudnn_train::epilo"
     "gue::thread::LinearCombination<float, 4, float, float, (cutlass_cudnn_train::epilogu"
     "e::thread::ScaleType::Kind)0, (cutlass_cudnn_train::FloatRoundStyle)2>, cutlass_cudn"
     "n_train::reduction::thread::ReduceAdd<float, float, 4>, 4>::Params)",
     "cutlass_cudnn_train::Kernel<ReduceSplitK>", "cuDNN"},
    // HTA NCCL trace
    {"sm80_xmma_fprop_implicit_gemm_indexed_tf32f32_tf32f32_f32_nhwckrsc_nchw_tilesize256x"
     "64x32_stage3_warpsize4x2x1_g1_tensor16x8x8_execute_kernel_cudnn_infer",
     "sm80_xmma_fprop_implicit_gemm_indexed_tf32f32_tf32f32_f32_nhwckrsc_nchw_tilesize256x64x32_"
     "stage3_warpsize4x2x1_g1_tensor16x8x8_execute_kernel_cudnn_infer",
     "cuDNN"},
    // Kineto ResNet-50
    {"void cudnn::winograd_nonfused::winogradForwardData4x4<float, float>(cudnn::winograd_"
     "nonfused::WinogradDataParams<float, float>)",
     "winogradForwardData4x4", "cuDNN"},
    // Kineto ResNet-50
    {"cask_cudnn::computeOffsetsKernel(cask_cudnn::ComputeOffsetsParams)", "computeOffsetsKernel",
     "cuDNN"},
    // Kineto ResNet-50: no namespace, cuDNN's type in a template argument
    {"void nchwToNhwcKernel<float, float, float, true, false, (cudnnKernelDataType_t)0>(in"
     "t, int, int, int, float const*, float*, float, float)",
     "nchwToNhwcKernel", "cuDNN"},
    // Kineto ResNet-50
    {"void implicit_convolve_sgemm<float, float, 128, 6, 7, 3, 3, 5, 1, false, true, true>"
     "(int, int, int, float const*, int, float*, float const*, kernel_conv_params, unsigne"
     "d long long, int, float, float, int, float const*, float const*, bool, int, int)",
     "implicit_convolve_sgemm", "cuDNN"},
    // HTA ns-resolution trace
    {"cudnn_infer_volta_scudnn_128x128_stridedB_small_nn_v1",
     "cudnn_infer_volta_scudnn_128x128_stridedB_small_nn_v1", "cuDNN"},
    // PARAM DLRM
    {"void cub::DeviceRadixSortOnesweepKernel<cub::DeviceRadixSortPolicy<long, int, int>::"
     "Policy800, false, long, int, int, int>(int*, int*, int*, int const*, long*, long con"
     "st*, int*, int const*, int, int, int)",
     "DeviceRadixSortOnesweepKernel", "CUB"},
    // PARAM DLRM
    {"void cub::DeviceScanKernel<cub::DeviceScanPolicy<int>::Policy600, int*, int*, cub::S"
     "canTileState<int, true>, cub::Sum, cub::NullType, int>(int*, int*, cub::ScanTileStat"
     "e<int, true>, int, cub::Sum, cub::NullType, int)",
     "DeviceScanKernel", "CUB"},
    // HTA sampled trace: PyTorch's vendored CUB
    {"void at_cuda_detail::cub::DeviceScanInitKernel<at_cuda_detail::cub::ScanTileState<lo"
     "ng, true> >(at_cuda_detail::cub::ScanTileState<long, true>, int)",
     "DeviceScanInitKernel", "CUB"},
    // Kineto ResNet-50: a lambda among the template arguments
    {"void at::native::vectorized_elementwise_kernel<4, at::native::threshold_kernel_impl<"
     "float>(at::TensorIteratorBase&, float, float)::{lambda(float, float)#1}, at::detail:"
     ":Array<char*, 3> >(int, at::native::threshold_kernel_impl<float>(at::TensorIteratorB"
     "ase&, float, float)::{lambda(float, float)#1}, at::detail::Array<char*, 3>)",
     "vectorized_elementwise_kernel", "PyTorch"},
    // PARAM DLRM: nested lambdas and operator() in the template arguments
    {"void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace):"
     ":launch_clamp_scalar(at::TensorIteratorBase&, c10::Scalar, c10::Scalar, at::native::"
     "detail::ClampLimits)::{lambda()#1}::operator()() const::{lambda()#7}::operator()() c"
     "onst::{lambda(float)#1}, at::detail::Array<char*, 2> >(int, at::native::(anonymous n"
     "amespace)::launch_clamp_scalar(at::TensorIteratorBase&, c10::Scalar, c10::Scalar, at"
     "::native::detail::ClampLimits)::{lambda()#1}::operator()() const::{lambda()#7}::oper"
     "ator()() const::{lambda(float)#1}, at::detail::Array<char*, 2>)",
     "vectorized_elementwise_kernel", "PyTorch"},
    // PARAM DLRM
    {"void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::func_"
     "wrapper_t<float, at::native::sum_functor<float, float, float>::operator()(at::Tensor"
     "Iterator&)::{lambda(float, float)#1}>, unsigned int, float, 4> >(at::native::ReduceO"
     "p<float, at::native::func_wrapper_t<float, at::native::sum_functor<float, float, flo"
     "at>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, float"
     ", 4>)",
     "reduce_kernel", "PyTorch"},
    // PARAM DLRM
    {"void at::native::(anonymous namespace)::CatArrayBatchedCopy<float, unsigned int, 2, "
     "128, 1>(float*, at::native::(anonymous namespace)::CatArrInputTensorMetadata<float, "
     "unsigned int, 128, 1>, at::native::(anonymous namespace)::TensorSizeStride<unsigned "
     "int, 4u>, int, unsigned int)",
     "CatArrayBatchedCopy", "PyTorch"},
    // PARAM DLRM: an anonymous namespace kernel over PyTorch's lambdas
    {"void (anonymous namespace)::elementwise_kernel_with_index<int, at::native::arange_cu"
     "da_out(c10::Scalar const&, c10::Scalar const&, c10::Scalar const&, at::Tensor&)::{la"
     "mbda()#1}::operator()() const::{lambda()#4}::operator()() const::{lambda(long)#1}>(i"
     "nt, at::native::arange_cuda_out(c10::Scalar const&, c10::Scalar const&, c10::Scalar "
     "const&, at::Tensor&)::{lambda()#1}::operator()() const::{lambda()#4}::operator()() c"
     "onst::{lambda(long)#1}, function_traits<at::native::arange_cuda_out(c10::Scalar cons"
     "t&, c10::Scalar const&, c10::Scalar const&, at::Tensor&)::{lambda()#1}::operator()()"
     " const::{lambda()#4}::operator()() const::{lambda(long)#1}>::result_type*)",
     "elementwise_kernel_with_index", "PyTorch"},
    // HTA trace diff: operator()<...> inside the template arguments
    {"void at::native::_scatter_gather_elementwise_kernel<128, 4, at::native::_cuda_scatte"
     "r_gather_internal_kernel<true, float>::operator()<at::native::ReduceAdd>(at::TensorI"
     "terator&, long, long, long, at::native::ReduceAdd const&)::{lambda(int)#1}>(int, at:"
     ":native::_cuda_scatter_gather_internal_kernel<true, float>::operator()<at::native::R"
     "educeAdd>(at::TensorIterator&, long, long, long, at::native::ReduceAdd const&)::{lam"
     "bda(int)#1})",
     "_scatter_gather_elementwise_kernel", "PyTorch"},
    // PARAM DLRM
    {"ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)",
     "ncclKernel_AllReduce_RING_LL_Sum_float", "NCCL"},
    // PARAM DLRM
    {"void fbgemm_gpu::permute_2D_lengths_kernel<int>(int, int, int const*, int const*, in"
     "t*)",
     "permute_2D_lengths_kernel", "FBGEMM"},
    // HTA: Triton kernels are the user's code
    {"triton__0d1d2d3d", "triton__0d1d2d3d", ""},
    // HTA Triton example
    {"triton_poi_fused_add_cos_sin_0", "triton_poi_fused_add_cos_sin_0", ""},
    // Warpline's reduce sample
    {"wl::workloads::(anonymous namespace)::partial_reduce(float const*, long, float*)",
     "partial_reduce", ""},
    // Warpline's reduce sample
    {"wl::workloads::(anonymous namespace)::single_thread_sum(float const*, int, float*)",
     "single_thread_sum", ""},
    // Warpline's power sample
    {"wl::workloads::(anonymous namespace)::normalizeKernel(double const*, double*, long)",
     "normalizeKernel", ""},
    // Numba, as quoted in issue 11 (its abi tag cut short there)
    {"kernels::divide_by[abi:v3][abi:cw51cXTLSUwv1sDUaKthq...](Array<float, 1, C, mutable,"
     " aligned>, ...)",
     "divide_by", ""},
    // Numba before 0.54: numbered specialisations
    {"cudapy::__main__::increment_by_one$241(Array<long long, 1, C, mutable, aligned>)",
     "increment_by_one", ""},
    // CuPy's elementwise kernel, as quoted in issue 11
    {"cupy_multiply__float_float_float", "cupy_multiply__float_float_float", "CuPy"},
    // CuPy's reduction kernel (create_reduction_func('cupy_sum', ...))
    {"cupy_sum", "cupy_sum", "CuPy"},
    // Already short
    {"partial_reduce", "partial_reduce", ""},
};

TEST(KernelNames, RealNamesGetTheirShortNames) {
    for (const NamedKernel& k : kRealNames) {
        EXPECT_EQ(shortKernelName(k.full), k.shortName) << k.full;
    }
}

TEST(KernelNames, RealNamesGetTheirLibraries) {
    for (const NamedKernel& k : kRealNames) {
        EXPECT_EQ(kernelLibrary(k.full), k.library) << k.full;
        EXPECT_EQ(isLibraryKernel(k.full), !k.library.empty()) << k.full;
    }
}

TEST(KernelNames, ShortNamesAreStable) {
    // A short name is its own short name: labels and tables may shorten twice without harm.
    for (const NamedKernel& k : kRealNames) {
        const std::string once = shortKernelName(k.full);
        if (once.find('<') == std::string::npos) {
            EXPECT_EQ(shortKernelName(once), once) << k.full;
        }
    }
}

TEST(KernelNames, MangledNamesAreDemangled) {
    // Numba's mangling of kernels.divide_by (abi tags B2v3, B16...) as it reaches CUPTI when no
    // demangled name is given.
    const std::string_view numba =
        "_ZN7kernels9divide_byB2v3B16cw51cXTLSUwv1sDUE5ArrayIfLi1E1C7mutable7alignedE";
    EXPECT_EQ(demangleKernelName(numba),
              "kernels::divide_by[abi:v3][abi:cw51cXTLSUwv1sDU](Array<float, 1, C, mutable, "
              "aligned>)");
    EXPECT_EQ(shortKernelName(numba), "divide_by");
    EXPECT_EQ(shortKernelName("_ZN3foo6kernelIiEEvPKfi"), "foo::kernel");
    EXPECT_EQ(shortKernelName("_Z6kernelPf"), "kernel");
    EXPECT_EQ(demangleKernelName("partial_reduce"), "partial_reduce");
}

TEST(KernelNames, UndemanglableNamesFallBack) {
    // A mangled name from the HTA NCCL trace that its producer cut short: the demangler rejects
    // it, its leading nested name still names it.
    const std::string_view truncated =
        "_ZN19cutlass_cudnn_train6KernelINS_4conv6kernel23ImplicitGemmConvolutionINS1_11threa"
        "dblock22ImplicitGemmMultistageINS_4gemm9GemmShapeILi128ELi128ELi32EEENS4_52Conv2dWgr"
        "adOutputGradientTileAccessIteratorOptimizedINS_11MatrixShapeILi128ELi32EEENS_10tfloa"
        "t32_tENS_9transform29PitchLinearWarpRakedThreadM";
    EXPECT_EQ(demangleKernelName(truncated), truncated);
    EXPECT_EQ(shortKernelName(truncated), "cutlass_cudnn_train::Kernel");
    EXPECT_EQ(kernelLibrary(truncated), "cuDNN");
    // Nothing to salvage: kept raw.
    EXPECT_EQ(shortKernelName("_Zgarbage"), "_Zgarbage");
}

TEST(KernelNames, GenericBaseNamesKeepOneScope) {
    EXPECT_EQ(shortKernelName("void (anonymous namespace)::detail::kernel(float*)"), "kernel");
    EXPECT_EQ(shortKernelName("void wl::detail::gemv::Kernel<float>(float*)"), "gemv::Kernel");
    // CUTLASS names its operations by the wrapper's first template argument.
    EXPECT_EQ(shortKernelName("void cutlass::Kernel2<cutlass_80_wmma_tensorop_s161616gemm_f16_"
                              "16x16_32x1_nn_align8>(cutlass_80_wmma_tensorop_s161616gemm_f16_"
                              "16x16_32x1_nn_align8::Params)"),
              "cutlass::Kernel2<cutlass_80_wmma_tensorop_s161616gemm_f16_16x16_32x1_nn_align8>");
    // ... but not by a scalar, a number or a pointer.
    EXPECT_EQ(shortKernelName("void ns::Kernel<unsigned int, 4>(int)"), "ns::Kernel");
    EXPECT_EQ(shortKernelName("void ns::kernel<128, float>(float*)"), "ns::kernel");
    EXPECT_EQ(shortKernelName("void ns::kernel<float*>(float*)"), "ns::kernel");
}

TEST(KernelNames, OperatorsAndLambdas) {
    EXPECT_EQ(shortKernelName("MyFunctor::operator()(int) const"), "MyFunctor::operator()");
    EXPECT_EQ(shortKernelName("at::native::threshold_kernel_impl<float>(at::TensorIteratorBase&, "
                              "float, float)::{lambda(float, float)#1}::operator()(float, float) "
                              "const"),
              "threshold_kernel_impl::lambda#1");
    EXPECT_EQ(shortKernelName("foo::operator<<(int)"), "foo::operator<<");
}

TEST(KernelNames, NeverEmpty) {
    EXPECT_EQ(shortKernelName(""), "(unnamed)");
    EXPECT_EQ(shortKernelName("   "), "(unnamed)");
    EXPECT_FALSE(shortKernelName("()").empty());
    EXPECT_FALSE(shortKernelName("<>").empty());
    EXPECT_FALSE(shortKernelName("::").empty());
    EXPECT_EQ(shortKernelName("  kernel  "), "kernel");
    // Cut short by its producer: unbalanced brackets.
    EXPECT_EQ(shortKernelName("void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float"),
              "reduce_kernel");
}

TEST(KernelNames, LibraryNamingSchemes) {
    EXPECT_EQ(kernelLibrary("void thrust::cuda_cub::core::_kernel_agent<thrust::cuda_cub::__"
                            "parallel_for::ParallelForAgent<F, unsigned long>, F, unsigned long>"
                            "(F, unsigned long)"),
              "Thrust");
    EXPECT_EQ(kernelLibrary("ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<"
                            "4096ul>)"),
              "NCCL");
    EXPECT_EQ(kernelLibrary("void flash::flash_fwd_kernel<Flash_fwd_kernel_traits<128, 128, 64, "
                            "4, false, false, cutlass::half_t> >(Flash_fwd_params)"),
              "FlashAttention");
    EXPECT_EQ(kernelLibrary("sm90_xmma_gemm_f16f16_f16f32_f32_tn_n_tilesize128x128x64_warpgroupsize"
                            "1x1x1_execute_segment_k_off_kernel__5x_cublas"),
              "cuBLAS");
    EXPECT_EQ(kernelLibrary("void c10::cuda::kernel(float*)"), "PyTorch");
    EXPECT_EQ(kernelLibrary("void gemv2T_kernel_val<int, int, float, float, float, float, 128, 16, "
                            "4, 4, false, false>(float)"),
              "cuBLAS");
    // cuBLAS's classic kernels outside any namespace (a PyTorch training loop on an H100).
    EXPECT_EQ(kernelLibrary("sgemm_largek_lds64"), "cuBLAS");
    EXPECT_EQ(kernelLibrary("void splitKreduce_kernel<32, 16, int, float, float, float, float, "
                            "true, false, false>(cublasSplitKParams<float>, float const*)"),
              "cuBLAS");
}

TEST(KernelNames, UserCodeIsNotALibrary) {
    // A user's own GEMM, named the way people name them.
    EXPECT_FALSE(isLibraryKernel("gemm_kernel"));
    EXPECT_FALSE(isLibraryKernel("sgemm"));
    EXPECT_FALSE(isLibraryKernel("void gemmKernel<float>(float const*, float const*, float*)"));
    EXPECT_FALSE(isLibraryKernel("void matmul_kernel<float>(float const*, float const*, float*)"));
    // A PyTorch extension kernel takes PyTorch's tensors but is the user's code.
    EXPECT_FALSE(isLibraryKernel(
        "void my_kernel(at::GenericPackedTensorAccessor<float, 2ul, at::RestrictPtrTraits, int>)"));
    // A user's own ElementwiseKernel in CuPy is named by the user.
    EXPECT_FALSE(isLibraryKernel("squared_diff"));
    EXPECT_FALSE(isLibraryKernel(""));
}

TEST(KernelNames, KernelsWithOneShortNameAreToldApartByTheirTemplateArguments) {
    const std::vector<std::string_view> names = {
        "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
        "at::detail::Array<char*, 1> >(int, at::native::FillFunctor<float>, "
        "at::detail::Array<char*, 1>)",
        "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, "
        "at::detail::Array<char*, 3> >(int, at::native::CUDAFunctor_add<float>, "
        "at::detail::Array<char*, 3>)",
        "partial_reduce",
        "void step<float>(float*, int)",
        "void step<float>(float*, long)",
    };
    const std::vector<std::string> shown = distinctShortKernelNames(names);
    ASSERT_EQ(shown.size(), names.size());
    EXPECT_EQ(shown[0], "vectorized_elementwise_kernel<4, FillFunctor<float>, Array<char*, 1>>");
    EXPECT_EQ(shown[1],
              "vectorized_elementwise_kernel<4, CUDAFunctor_add<float>, Array<char*, 3>>");
    EXPECT_EQ(shown[2], "partial_reduce");  // no other kernel has its name: it stays short
    // Overloads alike up to their parameters are numbered: their arguments tell nothing apart.
    EXPECT_EQ(shown[3], "step");
    EXPECT_EQ(shown[4], "step #2");
    EXPECT_TRUE(distinctShortKernelNames({}).empty());

    // Lambdas read as the function they are in; the arguments after the last that differs go.
    const std::string tail =
        ", at::detail::Array<char*, 4>, TrivialOffsetCalculator<3, unsigned int>, "
        "at::native::memory::LoadWithoutCast, at::native::memory::StoreWithoutCast>(int)";
    const std::string addcmul =
        "void at::native::unrolled_elementwise_kernel<at::native::addcmul_cuda_kernel(at::"
        "TensorIteratorBase&, c10::Scalar const&)::{lambda()#2}::operator()() const::{lambda()#7}"
        "::operator()() const::{lambda(float, float, float)#1}" +
        tail;
    const std::string addcdiv =
        "void at::native::unrolled_elementwise_kernel<at::native::addcdiv_cuda_kernel(at::"
        "TensorIteratorBase&, c10::Scalar const&)::{lambda()#2}::operator()() const::{lambda()#7}"
        "::operator()() const::{lambda(float, float, float)#1}" +
        tail;
    const std::vector<std::string> lambdas = distinctShortKernelNames({addcmul, addcdiv});
    EXPECT_EQ(lambdas[0], "unrolled_elementwise_kernel<addcmul_cuda_kernel::lambda#1, ...>");
    EXPECT_EQ(lambdas[1], "unrolled_elementwise_kernel<addcdiv_cuda_kernel::lambda#1, ...>");
    // A call operator's own template arguments name nothing.
    const std::vector<std::string> scatter = distinctShortKernelNames(
        {"void at::native::_scatter_gather_elementwise_kernel<128, 4, at::native::_cuda_scatter_"
         "gather_internal_kernel<true, float>::operator()<at::native::ReduceAdd>(at::"
         "TensorIterator&, long, long, long, at::native::ReduceAdd const&)::{lambda(int)#1}>(int)",
         "void at::native::_scatter_gather_elementwise_kernel<128, 4, at::native::_cuda_scatter_"
         "gather_internal_kernel<false, float>::operator()<at::native::TensorAssign>(at::"
         "TensorIterator&, long, long, long, at::native::TensorAssign const&)::{lambda(int)#1}>"
         "(int)"});
    EXPECT_EQ(scatter[0],
              "_scatter_gather_elementwise_kernel<128, 4, "
              "_cuda_scatter_gather_internal_kernel<true, float>::lambda#1>");
    EXPECT_EQ(scatter[1],
              "_scatter_gather_elementwise_kernel<128, 4, "
              "_cuda_scatter_gather_internal_kernel<false, float>::lambda#1>");
    // A cast among the arguments stays.
    const std::vector<std::string> casts =
        distinctShortKernelNames({"void nchwToNhwcKernel<float, (cudnnKernelDataType_t)0>(int)",
                                  "void nchwToNhwcKernel<float, (cudnnKernelDataType_t)2>(int)"});
    EXPECT_EQ(casts[0], "nchwToNhwcKernel<float, (cudnnKernelDataType_t)0>");
    EXPECT_EQ(casts[1], "nchwToNhwcKernel<float, (cudnnKernelDataType_t)2>");
}

// Tensor cores, judged from kernel names of the repository's test traces (tests/data: our
// recordings on an H200, the PyTorch profiler's traces, HTA's sampled ranks) and of the libraries
// since the TensorBoard plugin's list.
TEST(KernelNames, TensorCoresFromRealNames) {
    constexpr std::string_view kTensorCores[] = {
        // HTA sampled rank 0 (CUTLASS, TF32)
        "void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_128x128_16x4_nn_align4>(cutlass_80_"
        "tensorop_s1688gemm_128x128_16x4_nn_align4::Params)",
        // recorded torch_train (cuDNN, TF32 on sm_80 tiles; Hopper's warpgroup MMA)
        "sm80_xmma_fprop_implicit_gemm_tf32f32_tf32f32_f32_nhwckrsc_nchw_tilesize128x64x32_stage5_"
        "warpsize2x2x1_g1_tensor16x8x8_execute_kernel__5x_cudnn",
        "sm90_xmma_dgrad_implicit_gemm_f32f32_tf32f32_f32_nhwckrsc_nhwc_tilesize128x64x32_"
        "warpgroupsize1x1x1_g1_execute_segment_k_on_kernel__5x_cudnn",
        // recorded power_async (cuBLAS DGEMM on FP64 tensor cores)
        "sm90_xmma_gemm_f64f64_f64f64_f64_nn_n_tilesize128x64x16_stage3_warpsize2x2x1_tensor16x8x8_"
        "execute_kernel__5x_cublas",
        // The plugin's patterns: Volta/Turing/Ampere cuBLAS tiles
        "volta_h884gemm_64x64_ldg8_nn",
        "turing_fp16_s1688gemm_fp16_128x128_ldg8_f2f_nn",
        "ampere_fp16_s16816gemm_fp16_256x128_ldg8_f2f_stages_64x3_nn",
        // Since then: CUTLASS 3 on Hopper, cuBLAS's nvjet, FlashAttention, PyTorch's memory-
        // efficient attention
        "void cutlass::device_kernel<cutlass::gemm::kernel::GemmUniversal<cute::tuple<int, int, "
        "int, int>, cutlass::gemm::collective::CollectiveMma<cutlass::gemm::"
        "MainloopSm90TmaGmmaWarpSpecialized<4, cute::tuple<cute::C<2>, cute::C<1>, cute::C<1> >, "
        "cutlass::gemm::KernelTmaWarpSpecializedCooperative> > > >(Params)",
        "nvjet_hsh_128x256_64x4_2x1_v_bz_coopA_NNT",
        "void flash_fwd_kernel<Flash_fwd_kernel_traits<128, 128, 64, 4, false, false, "
        "cutlass::bfloat16_t> >(Flash_fwd_params)",
        "fmha_cutlassF_f16_aligned_64x64_rf_sm80(PyTorchMemEffAttention::AttentionKernel<"
        "cutlass::half_t, cutlass::arch::Sm80, true, 64, 64, 64, true, true>::Params)",
    };
    for (const std::string_view name : kTensorCores) {
        EXPECT_TRUE(usesTensorCores(name)) << name;
    }
    constexpr std::string_view kCudaCores[] = {
        // recorded torch_graph_replay and pytorch_small (cuBLAS FP32 on fused multiply-adds:
        // an xmma GEMM, but "ffma")
        "sm80_xmma_gemm_f32f32_f32f32_f32_nt_n_tilesize32x32x8_stage3_warpsize1x2x1_ffma_aligna4_"
        "alignc4_execute_kernel__5x_cublas",
        "sm80_xmma_fprop_implicit_gemm_f32f32_f32f32_f32_nchwkcrs_nchw_tilesize128x32x8_stage3_"
        "warpsize2x2x1_g1_ffma_aligna4_alignc4_execute_kernel__5x_cudnn",
        "void cutlass::Kernel2<cutlass_80_simt_sgemm_64x64_8x5_tn_align1>(cutlass_80_simt_sgemm_"
        "64x64_8x5_tn_align1::Params)",
        // HTA sampled rank 0, recorded torch_train
        "ampere_sgemm_128x64_nn",
        "void sgemm_largek_lds64<true, false, 5, 5, 4, 4, 4, 34>(float*, float const*, float "
        "const*, int, int, int, int, int, int, float const*, float const*, float, float, int, int, "
        "int*, int*)",
        "void cask_plugin__5x_cudnn::xmma__5x_cudnn::init_device_workspace_kernel<xmma__5x_cudnn::"
        "implicit_gemm::dgrad::Warp_specialized_params_nontemplate<xmma__5x_cudnn::Grid_constant_"
        "params> >(xmma__5x_cudnn::implicit_gemm::dgrad::Warp_specialized_params_nontemplate<"
        "xmma__5x_cudnn::Grid_constant_params>)",
        "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, "
        "at::detail::Array<char*, 3> >(int, at::native::CUDAFunctor_add<float>, at::detail::"
        "Array<char*, 3>)",
        "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)",
        "partial_reduce",
    };
    for (const std::string_view name : kCudaCores) {
        EXPECT_FALSE(usesTensorCores(name)) << name;
    }
}

}  // namespace
}  // namespace wl::analysis
