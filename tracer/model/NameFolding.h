#pragma once

#include <string>
#include <string_view>

namespace wl::model {

// A name with its numbers folded, so the instances of a repeated range group under one name:
// "I/O 45" -> "I/O #", "ProfilerStep#551" -> "ProfilerStep#". A number that stands as a word
// becomes one '#' (one right after a '#' folds into it); digits inside a word stay ("H2D Memory
// Stream 3" -> "H2D Memory Stream #", "conv2d"). Pure function; used by the analysis (idle time by
// host range, diffs, stragglers) and by the rank loader (alignment by a range name).
std::string foldDigits(std::string_view name);

}  // namespace wl::model
