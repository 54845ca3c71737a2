#pragma once

#include <cstddef>
#include <string_view>

namespace wl::io {

// Finds where the members of a JSON array or object end without parsing them, so a large event
// array can be handed to the parser a run of whole events at a time: the parser's index then
// covers one run (a few MB) instead of the whole file (4 bytes per structural character: 240 MB
// for a 366 MB PyTorch-profiler trace), and its pages are reused from run to run instead of being
// faulted in fresh. Strings, escaped quotes in them included, are followed, so a bracket or a
// comma inside a string never cuts.
//
// Scans 64 bytes at a time with bit masks (string interiors by prefix XOR of the quote bits, the
// way simdjson's first stage finds them); a block holding a backslash is scanned byte by byte.
//
// `from` must lie between two members of the container (just after its opening bracket or just
// after a separator this function returned), outside any string. Returns the position of the
// first separator ',' at the container's own level at or after `from + targetBytes`, or of the
// container's closing bracket if it comes first; npos when the text ends before either (a
// truncated document). On text that is not valid JSON the cut is meaningless but stays within
// the text; the parser then rejects the run.
std::size_t nextMemberCut(std::string_view text, std::size_t from, std::size_t targetBytes);

namespace detail {
// The same with the scanner every x86-64 processor has (SSE2), whatever this one has: for tests.
std::size_t nextMemberCutBaseline(std::string_view text, std::size_t from, std::size_t targetBytes);
}  // namespace detail

}  // namespace wl::io
