#include "analysis/KernelNames.h"

#include <cxxabi.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdlib>
#include <memory>
#include <vector>

namespace wl::analysis {

namespace {

constexpr std::string_view kUnnamed = "(unnamed)";

bool isIdentChar(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '$';
}
bool isDigit(char c) {
    return std::isdigit(static_cast<unsigned char>(c)) != 0;
}
bool isUpper(char c) {
    return std::isupper(static_cast<unsigned char>(c)) != 0;
}
bool isOpen(char c) {
    return c == '(' || c == '<' || c == '[' || c == '{';
}
bool isClose(char c) {
    return c == ')' || c == '>' || c == ']' || c == '}';
}
bool startsWith(std::string_view s, std::string_view prefix) {
    return s.substr(0, prefix.size()) == prefix;
}
bool endsWith(std::string_view s, std::string_view suffix) {
    return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}
bool contains(std::string_view s, std::string_view part) {
    return s.find(part) != std::string_view::npos;
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())) != 0) {
        s.remove_prefix(1);
    }
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())) != 0) {
        s.remove_suffix(1);
    }
    return s;
}

std::string lowered(std::string_view s) {
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

// Length of the operator name starting at s[i] ("operator()", "operator<<", "operator new"), 0
// when none starts there. Its brackets must not count as nesting.
std::size_t operatorLength(std::string_view s, std::size_t i) {
    constexpr std::string_view kOperator = "operator";
    if (s.compare(i, kOperator.size(), kOperator) != 0 || (i > 0 && isIdentChar(s[i - 1]))) {
        return 0;
    }
    std::size_t j = i + kOperator.size();
    if (j < s.size() && isIdentChar(s[j])) {
        return 0;  // an identifier such as "operator_fn"
    }
    if (s.compare(j, 2, "()") == 0 || s.compare(j, 2, "[]") == 0) {
        return j + 2 - i;
    }
    constexpr std::string_view kSymbols = "+-*/%^&|~!=<>,";
    std::size_t k = j;
    while (k < s.size() && k - j < 3 && kSymbols.find(s[k]) != std::string_view::npos) {
        ++k;
    }
    if (k > j) {
        return k - i;
    }
    // "operator new", "operator delete", conversion operators: the next word belongs to it.
    if (j < s.size() && s[j] == ' ') {
        ++j;
        while (j < s.size() && isIdentChar(s[j])) {
            ++j;
        }
    }
    return j - i;
}

// Calls visit(i) for every index of s outside all brackets (and for each bracket that opens at
// that level), skipping operator names; visit returns true to stop. Unbalanced input (a name cut
// short by its producer) just stays nested to the end.
template <class Visit>
void forEachTopLevel(std::string_view s, Visit&& visit) {
    int depth = 0;
    for (std::size_t i = 0; i < s.size();) {
        if (const std::size_t op = operatorLength(s, i); op > 0) {
            i += op;
            continue;
        }
        const char c = s[i];
        if (isOpen(c)) {
            if (depth == 0 && visit(i)) {
                return;
            }
            ++depth;
        } else if (isClose(c)) {
            depth = std::max(0, depth - 1);
        } else if (depth == 0 && visit(i)) {
            return;
        }
        ++i;
    }
}

// Index of the bracket closing the one opened at s[open], or npos.
std::size_t matchingClose(std::string_view s, std::size_t open) {
    int depth = 0;
    for (std::size_t i = open; i < s.size(); ++i) {
        if (isOpen(s[i])) {
            ++depth;
        } else if (isClose(s[i]) && --depth == 0) {
            return i;
        }
    }
    return std::string_view::npos;
}

// Drops the trailing parameter list and the qualifiers after it (" const", " &").
std::string_view stripParameters(std::string_view s) {
    for (bool again = true; again;) {
        again = false;
        s = trim(s);
        for (std::string_view q : {"const", "volatile", "noexcept", "&&", "&"}) {
            if (endsWith(s, q) && trim(s.substr(0, s.size() - q.size())).ends_with(')')) {
                s = s.substr(0, s.size() - q.size());
                again = true;
                break;
            }
        }
    }
    if (s.empty() || s.back() != ')') {
        return s;
    }
    int depth = 0;
    for (std::size_t i = s.size(); i-- > 0;) {
        if (isClose(s[i])) {
            ++depth;
        } else if (isOpen(s[i]) && --depth == 0) {
            const std::string_view head = trim(s.substr(0, i));
            // "(anonymous namespace)" alone, or "foo::operator()" without a parameter list.
            if (s[i] != '(' || head.empty() || endsWith(head, "operator")) {
                return s;
            }
            return head;
        }
    }
    return s;  // unbalanced
}

// One `::`-separated part of a qualified name, reduced to its identifier.
struct Component {
    std::string name;               // "kernel", "lambda#1", "operator()"
    std::string_view templateArgs;  // inside the angle brackets, when it had them
    bool skippable = false;         // a scope that names nothing: anonymous, detail, internal
    bool lambda = false;
};

Component reduce(std::string_view part) {
    Component c;
    const std::string_view t = trim(part);
    if (startsWith(t, "(anonymous") || startsWith(t, "{unnamed")) {
        c.skippable = true;
        return c;
    }
    if (startsWith(t, "{lambda")) {
        c.lambda = true;
        c.name = "lambda";
        const std::size_t hash = t.rfind('#');
        if (hash != std::string_view::npos && hash > t.rfind(')')) {
            c.name += t.substr(hash, t.find('}', hash) - hash);
        }
        return c;
    }
    // The identifier ends where its template arguments, Numba's [abi:...] tags or a parameter
    // list (of an enclosing function, before a lambda) begin.
    std::size_t end = t.size();
    forEachTopLevel(t, [&](std::size_t i) {
        if (t[i] == '<' || t[i] == '[' || t[i] == '(') {
            end = i;
            return true;
        }
        return false;
    });
    std::string_view name = trim(t.substr(0, end));
    if (end < t.size() && t[end] == '<') {
        const std::size_t close = matchingClose(t, end);
        c.templateArgs = t.substr(
            end + 1, close == std::string_view::npos ? std::string_view::npos : close - end - 1);
    }
    // Old Numba versions number their specialisations: "increment_by_one$241".
    if (const std::size_t dollar = name.find('$'); dollar != std::string_view::npos && dollar > 0) {
        name = name.substr(0, dollar);
    }
    c.name = std::string(name);
    c.skippable = name == "detail" || name == "internal" || name == "cudapy" || name == "__main__";
    return c;
}

// The qualified name of a demangled signature, split into its components: no return type, no
// parameter list.
std::vector<Component> components(std::string_view signature) {
    const std::string_view s = stripParameters(signature);
    // The return type ends at the last space outside all brackets.
    std::size_t start = 0;
    forEachTopLevel(s, [&](std::size_t i) {
        if (s[i] == ' ') {
            start = i + 1;
        }
        return false;
    });
    const std::string_view q = s.substr(start);
    std::vector<Component> out;
    std::size_t from = 0;
    forEachTopLevel(q, [&](std::size_t i) {
        if (i >= from && q[i] == ':' && i + 1 < q.size() && q[i + 1] == ':') {
            out.push_back(reduce(q.substr(from, i - from)));
            from = i + 2;
        }
        return false;
    });
    out.push_back(reduce(q.substr(from)));
    return out;
}

// Names that say nothing without their scope.
bool isGeneric(const Component& c) {
    if (c.lambda || startsWith(c.name, "operator")) {
        return true;
    }
    std::string_view n = c.name;
    if (n == "device_kernel" || n == "global_kernel" || n == "_kernel_agent" ||
        n == "kernel_agent") {
        return true;
    }
    if (startsWith(n, "kernel") || startsWith(n, "Kernel")) {
        n.remove_prefix(6);
        return std::all_of(n.begin(), n.end(), isDigit);  // Kernel, kernel, Kernel2
    }
    return false;
}

// True when a template argument names a class (cutlass's operation types), not a scalar type, a
// value or a pointer.
bool namesClass(std::string_view arg) {
    static constexpr std::array<std::string_view, 30> kScalars = {
        "bool",     "char",     "short",   "int",      "long",          "float",
        "double",   "void",     "signed",  "unsigned", "wchar_t",       "char16_t",
        "char32_t", "half",     "__half",  "half2",    "__nv_bfloat16", "size_t",
        "int8_t",   "int16_t",  "int32_t", "int64_t",  "uint8_t",       "uint16_t",
        "uint32_t", "uint64_t", "float2",  "float4",   "double2",       "true"};
    if (arg.empty() || !(std::isalpha(static_cast<unsigned char>(arg[0])) != 0 || arg[0] == '_')) {
        return false;
    }
    bool plain = true;  // no space, pointer or reference outside brackets ("unsigned int")
    forEachTopLevel(arg, [&](std::size_t i) {
        if (arg[i] == ' ' || arg[i] == '*' || arg[i] == '&') {
            plain = false;
            return true;
        }
        return false;
    });
    return plain && arg != "false" &&
           std::find(kScalars.begin(), kScalars.end(), arg) == kScalars.end();
}

std::string_view firstTemplateArgument(std::string_view args) {
    std::size_t end = args.size();
    forEachTopLevel(args, [&](std::size_t i) {
        if (args[i] == ',') {
            end = i;
            return true;
        }
        return false;
    });
    return trim(args.substr(0, end));
}

// A mangled name the demangler rejects (CUPTI and Kineto cut very long ones short) still starts
// with its nested name: "_ZN19cutlass_cudnn_train6KernelINS_4conv..." -> "cutlass_cudnn_train::
// Kernel". Empty when it does not start that way.
std::string leadingMangledName(std::string_view m) {
    std::size_t i = 2;  // after "_Z"
    if (i < m.size() && m[i] == 'N') {
        ++i;
        while (i < m.size() && (m[i] == 'K' || m[i] == 'V' || m[i] == 'r')) {
            ++i;  // cv-qualifiers of a member function
        }
    }
    std::string out;
    while (i < m.size()) {
        if (m[i] == 'L') {
            ++i;  // internal linkage
            continue;
        }
        if (m.compare(i, 2, "St") == 0) {
            out += "std::";
            i += 2;
            continue;
        }
        if (!isDigit(m[i])) {
            break;
        }
        std::size_t length = 0;
        while (i < m.size() && isDigit(m[i]) && length < 100000) {
            length = length * 10 + static_cast<std::size_t>(m[i] - '0');
            ++i;
        }
        if (length == 0 || i + length > m.size()) {
            break;
        }
        out.append(m.substr(i, length)).append("::");
        i += length;
    }
    if (endsWith(out, "::")) {
        out.resize(out.size() - 2);
    }
    return out;
}

std::string shortName(std::string_view signature, int depth) {
    std::vector<Component> parts = components(signature);
    // A lambda's call operator reads as the lambda.
    if (parts.size() >= 2 && parts.back().name == "operator()" && parts[parts.size() - 2].lambda) {
        parts.pop_back();
    }
    while (!parts.empty() && parts.back().name.empty()) {
        parts.pop_back();
    }
    if (parts.empty()) {
        return {};
    }
    const Component& base = parts.back();
    if (!isGeneric(base)) {
        return base.name;
    }
    std::string out;
    for (std::size_t j = parts.size() - 1; j-- > 0;) {
        if (!parts[j].skippable && !parts[j].name.empty()) {
            out = parts[j].name + "::";
            break;
        }
    }
    out += base.name;
    const std::string_view arg = firstTemplateArgument(base.templateArgs);
    if (depth < 4 && !base.lambda && namesClass(arg)) {
        if (const std::string inner = shortName(arg, depth + 1); !inner.empty()) {
            out += "<" + inner + ">";
        }
    }
    return out;
}

// The scopes and base of a name, for the library checks: raw identifiers, nothing dropped.
std::vector<std::string> identifiers(std::string_view signature) {
    std::vector<std::string> out;
    for (const Component& c : components(signature)) {
        out.push_back(c.name);
    }
    return out;
}

bool isArchitecturePrefixed(std::string_view base) {
    for (std::string_view arch :
         {"maxwell_", "pascal_", "volta_", "turing_", "ampere_", "ada_", "hopper_", "blackwell_"}) {
        if (startsWith(base, arch)) {
            return true;
        }
    }
    // sm80_xmma_..., sm90_xmma_...
    return base.size() > 3 && startsWith(base, "sm") && isDigit(base[2]);
}

// cuBLAS's internal kernel families: gemvx::kernel, gemv2T_kernel_val, gemvNSP_kernel,
// gemmk1_kernel, gemmSN_NN_kernel. A user's gemm_kernel or gemmKernel does not match.
bool isCublasFamily(std::string_view id) {
    if (!startsWith(id, "gemv") && !startsWith(id, "gemm")) {
        return false;
    }
    const std::string_view rest = id.substr(4);
    return !rest.empty() && (isDigit(rest[0]) || rest[0] == 'x' || rest[0] == 'k' ||
                             (rest.size() >= 2 && isUpper(rest[0]) && isUpper(rest[1])));
}

// cuBLAS's classic BLAS kernels outside any namespace: sgemm_largek_lds64, dgemm_sm_heavy_...,
// zgemv2T_kernel, and the split-K reduction of its GEMMs.
bool isClassicBlasKernel(std::string_view id) {
    if (startsWith(id, "splitKreduce_kernel")) {
        return true;
    }
    if (id.size() < 6 || std::string_view("sdhczb").find(id[0]) == std::string_view::npos) {
        return false;
    }
    const std::string_view op = id.substr(1, 4);
    return (op == "gemm" || op == "gemv") && (id[5] == '_' || isDigit(id[5]) || isUpper(id[5]));
}

// Whether c continues a name in a template argument ("lambda#1" is one name here).
bool isNameChar(char c) {
    return isIdentChar(c) || c == '#';
}

// One template argument as short as it still reads: no parameter lists or cv-qualifiers of the
// functions it names, no call operators, a lambda as its enclosing function's
// ("at::native::addcmul_cuda_kernel(at::TensorIteratorBase&, c10::Scalar const&)::{lambda()#2}::
// operator()() const::{lambda(float, float, float)#1}" -> "addcmul_cuda_kernel::lambda#1"), no
// scope qualifiers ("at::native::CUDAFunctor_add<float>" -> "CUDAFunctor_add<float>"), inside
// nested template arguments too, and no space before a closing angle bracket.
std::string readableArgument(std::string_view arg) {
    std::string s(trim(arg));
    for (std::size_t at; (at = s.find("(anonymous namespace)::")) != std::string::npos;) {
        s.erase(at, std::string_view("(anonymous namespace)::").size());
    }
    // "{lambda(float)#1}" -> "lambda#1"
    for (std::size_t at; (at = s.find("{lambda")) != std::string::npos;) {
        const std::size_t close = matchingClose(s, at);
        if (close == std::string::npos) {
            break;
        }
        const std::string_view inner = std::string_view(s).substr(at, close - at);
        const std::size_t hash = inner.rfind('#');
        const std::string number = hash != std::string_view::npos && hash > inner.rfind(')')
                                       ? std::string(inner.substr(hash))
                                       : std::string();
        s.replace(at, close - at + 1, "lambda" + number);
    }
    // Parameter lists and calls: a bracket right after a name, a '>' or a ')'. A cast
    // ("(cudnnKernelDataType_t)0") follows a comma or '<' and stays.
    for (std::size_t i = 1; i < s.size();) {
        if (s[i] == '(' && (isIdentChar(s[i - 1]) || s[i - 1] == '>' || s[i - 1] == ')')) {
            const std::size_t close = matchingClose(s, i);
            s.erase(i, close == std::string::npos ? std::string::npos : close - i + 1);
            continue;
        }
        ++i;
    }
    // The qualifiers of member functions ("operator()() const::{lambda...}").
    for (const std::string_view word : {" const", " volatile"}) {
        for (std::size_t at = 0; (at = s.find(word, at)) != std::string::npos;) {
            const std::size_t end = at + word.size();
            if (end < s.size() && isNameChar(s[end])) {
                at = end;
                continue;
            }
            s.erase(at, word.size());
        }
    }
    std::string out;
    std::size_t i = 0;
    while (i < s.size()) {
        if (!(std::isalpha(static_cast<unsigned char>(s[i])) != 0 || s[i] == '_')) {
            if (s[i] == '>' && !out.empty() && out.back() == ' ') {
                out.pop_back();
            }
            out += s[i++];
            continue;
        }
        // A qualified name: its parts, then only the last one (or the function a lambda is in).
        std::vector<std::string> chain;
        for (;;) {
            std::size_t end = i;
            while (end < s.size() && isNameChar(s[end])) {
                ++end;
            }
            chain.emplace_back(s.substr(i, end - i));
            i = end;
            if (s.compare(i, 2, "::") == 0 && i + 2 < s.size() &&
                (std::isalpha(static_cast<unsigned char>(s[i + 2])) != 0 || s[i + 2] == '_')) {
                i += 2;
                continue;
            }
            break;
        }
        std::erase_if(chain, [](const std::string& part) { return part == "operator"; });
        if (chain.empty()) {
            // A call operator with template arguments ("::operator()<ReduceAdd>::{lambda}"):
            // it names nothing, and neither do they.
            if (endsWith(out, "::")) {
                out.resize(out.size() - 2);
            }
            if (i < s.size() && s[i] == '<') {
                const std::size_t close = matchingClose(s, i);
                i = close == std::string::npos ? s.size() : close + 1;
            }
            continue;
        }
        std::string name = chain.back();
        if (startsWith(name, "lambda")) {
            for (std::size_t j = chain.size() - 1; j-- > 0;) {
                if (!startsWith(chain[j], "lambda")) {
                    name = chain[j] + "::" + name;
                    break;
                }
            }
        }
        out += name;
    }
    return std::string(trim(out));
}

// The template arguments of a kernel's function, each readable; empty when it has none.
std::vector<std::string> templateArguments(std::string_view fullName) {
    std::string full = demangleKernelName(trim(fullName));
    std::vector<Component> parts = components(full);
    while (!parts.empty() && parts.back().name.empty()) {
        parts.pop_back();
    }
    std::vector<std::string> out;
    if (parts.empty() || parts.back().templateArgs.empty()) {
        return out;
    }
    const std::string_view args = parts.back().templateArgs;
    std::size_t from = 0;
    forEachTopLevel(args, [&](std::size_t i) {
        if (args[i] == ',') {
            out.push_back(readableArgument(args.substr(from, i - from)));
            from = i + 1;
        }
        return false;
    });
    out.push_back(readableArgument(args.substr(from)));
    return out;
}

}  // namespace

std::vector<std::string> distinctShortKernelNames(const std::vector<std::string_view>& fullNames) {
    std::vector<std::string> out;
    out.reserve(fullNames.size());
    std::unordered_map<std::string, std::vector<std::size_t>> byShort;
    for (std::size_t i = 0; i < fullNames.size(); ++i) {
        out.push_back(shortKernelName(fullNames[i]));
        byShort[out.back()].push_back(i);
    }
    for (const auto& [shortName, indexes] : byShort) {
        if (indexes.size() < 2) {
            continue;
        }
        // The arguments up to the last one in which the kernels differ; the same ones after it
        // would only make the names longer.
        std::vector<std::vector<std::string>> args;
        std::size_t longest = 0;
        for (const std::size_t i : indexes) {
            args.push_back(templateArguments(fullNames[i]));
            longest = std::max(longest, args.back().size());
        }
        std::size_t shown = 0;
        for (std::size_t k = 0; k < longest; ++k) {
            for (const auto& a : args) {
                if (k >= a.size() || a[k] != args.front()[k]) {
                    shown = k + 1;
                    break;
                }
            }
        }
        // A short name that kept a class argument (cutlass::Kernel<Op>) gets the list instead.
        const std::string base = shortName.substr(0, shortName.find('<'));
        std::unordered_map<std::string, std::size_t> seen;
        for (std::size_t m = 0; m < indexes.size(); ++m) {
            std::string name = base;
            if (shown > 0) {
                name += '<';
                for (std::size_t k = 0; k < shown && k < args[m].size(); ++k) {
                    name += (k == 0 ? "" : ", ") + args[m][k];
                }
                name += args[m].size() > shown ? ", ...>" : ">";
            }
            const std::size_t n = ++seen[name];
            if (n > 1) {
                name += " #" + std::to_string(n);
            }
            out[indexes[m]] = std::move(name);
        }
    }
    return out;
}

std::string demangleKernelName(std::string_view name) {
    if (!startsWith(name, "_Z")) {
        return std::string(name);
    }
    const std::string mangled(name);  // the demangler needs a terminated string
    int status = 0;
    const std::unique_ptr<char, decltype(&std::free)> out(
        abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status), &std::free);
    return status == 0 && out ? std::string(out.get()) : mangled;
}

std::string shortKernelName(std::string_view demangledOrMangled) {
    const std::string_view input = trim(demangledOrMangled);
    if (input.empty()) {
        return std::string(kUnnamed);
    }
    std::string full = demangleKernelName(input);
    if (startsWith(full, "_Z")) {
        // Not demangled: name it by the identifiers its mangling starts with, else keep it raw.
        if (std::string lead = leadingMangledName(full); !lead.empty()) {
            full = std::move(lead);
        } else {
            return full;
        }
    }
    std::string out = shortName(full, 0);
    if (out.empty()) {
        out = std::string(trim(full));
    }
    return out.empty() ? std::string(kUnnamed) : out;
}

std::string_view kernelLibrary(std::string_view name) {
    std::string full = demangleKernelName(trim(name));
    if (startsWith(full, "_Z")) {
        full = leadingMangledName(full);
    }
    const std::vector<std::string> ids = identifiers(full);
    if (ids.empty()) {
        return {};
    }
    const std::string_view base = ids.back();
    const std::string lower = lowered(full);
    // The qualified name with its template arguments, without return type and parameters.
    const std::string qualified = lowered(stripParameters(full));
    const auto hasScope = [&](std::string_view scope) {
        return std::find(ids.begin(), ids.end() - 1, scope) != ids.end() - 1;
    };
    const auto anyId = [&](auto&& pred) { return std::any_of(ids.begin(), ids.end(), pred); };

    if (startsWith(base, "nccl")) {
        return "NCCL";
    }
    if (hasScope("flash") || hasScope("pytorch_flash") || startsWith(base, "flash_fwd") ||
        startsWith(base, "flash_bwd") || startsWith(base, "flash_attn") ||
        startsWith(base, "fmha")) {
        return "FlashAttention";
    }
    // cuDNN names itself (cudnn::, cask_cudnn::, cutlass_cudnn_train::, *_scudnn_*,
    // ..._cudnn_infer) everywhere except in its older convolution kernels (implicit_convolve_sgemm,
    // wgrad_alg0_engine, fft2d_r2c_32x32 outside any namespace).
    if (contains(qualified, "cudnn") || startsWith(base, "implicit_convolve") ||
        startsWith(base, "explicit_convolve") || startsWith(base, "wgrad_alg") ||
        startsWith(base, "dgrad_engine") || startsWith(base, "fft2d_")) {
        return "cuDNN";
    }
    // cuBLAS and cuBLASLt: their parameter structs (cublasGemvParams, cublasLtEpilogue_t) appear
    // in their kernels' signatures; the architecture-named GEMMs (ampere_sgemm_128x64_nn,
    // sm90_xmma_gemm_...) and the gemv/gemm families have none.
    if (contains(lower, "cublas") || anyId(isCublasFamily) || isClassicBlasKernel(base) ||
        (isArchitecturePrefixed(base) &&
         (contains(base, "gemm") || contains(base, "gemv") || contains(base, "xmma")))) {
        return "cuBLAS";
    }
    if (anyId([](const std::string& id) { return startsWith(id, "cutlass"); })) {
        return "CUTLASS";
    }
    if (hasScope("cub")) {
        return "CUB";
    }
    if (hasScope("thrust")) {
        return "Thrust";
    }
    // PyTorch's own namespaces, or kernels instantiated with its internal functors (an anonymous
    // namespace kernel over at::native lambdas).
    if (hasScope("at") || hasScope("c10") || hasScope("caffe2") || hasScope("at_cuda_detail") ||
        hasScope("torch") || contains(qualified, "at::native::")) {
        return "PyTorch";
    }
    if (hasScope("fbgemm_gpu") || hasScope("fbgemm")) {
        return "FBGEMM";
    }
    if (startsWith(base, "cupy_") || hasScope("cupy")) {
        return "CuPy";
    }
    if (contains(lower, "cufft") || startsWith(base, "regular_fft") ||
        startsWith(base, "vector_fft")) {
        return "cuFFT";
    }
    if (contains(lower, "curand")) {
        return "cuRAND";
    }
    if (contains(lower, "cusparse")) {
        return "cuSPARSE";
    }
    if (contains(lower, "cusolver")) {
        return "cuSOLVER";
    }
    if (startsWith(base, "Cijk_")) {
        return "rocBLAS";  // Tensile GEMMs in AMD traces
    }
    return {};
}

bool CollectiveKernels::contains(model::StringId nameId) {
    auto it = m_known.find(nameId);
    if (it == m_known.end())
        it = m_known.emplace(nameId, kernelLibrary(m_trace.str(nameId)) == "NCCL").first;
    return it->second;
}

namespace {

// Whether `lower` holds "tensor" followed by an MMA shape's first digit ("tensor16x8x8": cuBLAS
// and cuDNN's xmma kernels name the tensor-core instruction shape they issue).
bool namesMmaShape(std::string_view lower) {
    constexpr std::string_view kTensor = "tensor";
    for (std::size_t at = lower.find(kTensor); at != std::string_view::npos;
         at = lower.find(kTensor, at + 1)) {
        const std::size_t after = at + kTensor.size();
        if (after < lower.size() && isDigit(lower[after])) {
            return true;
        }
    }
    return false;
}

// Whether `lower` holds `token` between non-alphanumeric characters ("_ffma_", "ffma" at an end).
bool hasToken(std::string_view lower, std::string_view token) {
    for (std::size_t at = lower.find(token); at != std::string_view::npos;
         at = lower.find(token, at + 1)) {
        const std::size_t after = at + token.size();
        const bool startsToken =
            at == 0 || std::isalnum(static_cast<unsigned char>(lower[at - 1])) == 0;
        const bool endsToken =
            after == lower.size() || std::isalnum(static_cast<unsigned char>(lower[after])) == 0;
        if (startsToken && endsToken) {
            return true;
        }
    }
    return false;
}

}  // namespace

bool usesTensorCores(std::string_view kernelName) {
    const std::string lower = lowered(kernelName);
    // Kernels that say they run on the CUDA cores: CUTLASS's "simt" GEMMs, and cuBLAS's xmma
    // kernels built on fused multiply-adds ("sm80_xmma_gemm_f32f32_..._ffma_aligna4_..."), which
    // the plugin's "xmma_gemm" pattern below would otherwise take for tensor-core kernels.
    if (contains(lower, "simt") || hasToken(lower, "ffma") || hasToken(lower, "dfma") ||
        hasToken(lower, "hfma2")) {
        return false;
    }
    // The TensorBoard plugin's list (itself from NVIDIA's PyProf): Volta/Turing/Ampere cuBLAS
    // and cuDNN GEMM tiles by their MMA instruction shape (h884, s1688, i8816, 16816, ...), and
    // cuDNN's tensor-core convolution kernels by name.
    static constexpr std::string_view kPlugin[] = {
        "h884",
        "s884",
        "h1688",
        "s1688",
        "c1688",
        "hmma",
        "i8816",
        "16816",
        "dgrad_1x1_stride_2x2",
        "first_layer_wgrad_kernel",
        "conv1x1",
        "conv2d_c1_k1",
        "direct_group",
        "xmma_implicit_gemm",
        "xmma_sparse_conv",
        "xmma_warp_specialized_implicit_gemm",
        "xmma_gemm",
        "xmma_sparse_gemm",
    };
    // Since then: CUTLASS's tensor-op kernels (cutlass_80_tensorop_*, OpClassTensorOp), WMMA,
    // integer and double MMA, Hopper's warpgroup MMA (CUTLASS 3's "Gmma" main loops, cuBLAS and
    // cuDNN's "wgmma" and "warpgroupsize" kernels), cuBLAS's nvjet kernels (Hopper and later),
    // and flash / fused multi-head attention (FlashAttention, PyTorch's and cuDNN's SDPA).
    static constexpr std::string_view kModern[] = {
        "tensorop",      "wmma",  "imma",      "dmma",       "gmma",
        "warpgroupsize", "nvjet", "flash_fwd", "flash_bwd",  "flash_fprop",
        "flash_bprop",   "fmha",  "flashattn", "flash_attn",
    };
    const auto found = [&lower](std::string_view pattern) { return contains(lower, pattern); };
    return std::any_of(std::begin(kPlugin), std::end(kPlugin), found) ||
           std::any_of(std::begin(kModern), std::end(kModern), found) || namesMmaShape(lower);
}

}  // namespace wl::analysis
