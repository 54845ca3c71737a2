#include "support/TestData.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

namespace wl::test {

std::string dataPath(const std::string& name) {
    return std::string(WARPLINE_TEST_DATA_DIR) + "/" + name;
}

std::string samplePath(const std::string& name) {
    return std::string(WARPLINE_SAMPLES_DIR) + "/" + name;
}

std::string readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

std::string makeTempDir(const std::string& prefix) {
    std::random_device rd;
    const auto dir = std::filesystem::temp_directory_path() /
                     (prefix + "-" + std::to_string(rd()) + std::to_string(rd()));
    std::filesystem::create_directories(dir);
    return dir.string();
}

}  // namespace wl::test
