#pragma once

#include <string>

namespace wl::test {

// Absolute path of a file in tests/data.
std::string dataPath(const std::string& name);
// Absolute path of a bundled sample trace in resources/samples.
std::string samplePath(const std::string& name);
// Whole file as bytes; empty when it cannot be read.
std::string readFile(const std::string& path);
// A fresh empty directory under the system temp folder, removed by the OS eventually.
std::string makeTempDir(const std::string& prefix);

}  // namespace wl::test
