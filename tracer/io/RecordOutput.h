#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "model/Result.h"

namespace wl::io {

// Who is writing a recorded trace: `warpline record` traces the program it starts (the root) and
// every process that program starts in turn, and each writes a trace of its own.
struct RecordProcess {
    std::int64_t pid = 0;
    bool root = true;  // the process `record` started; false for its children
    std::string host;
    // An environment variable's value, or nullptr when unset (std::getenv in real use).
    std::function<const char*(const char*)> env;
    // Whether a path is taken already (for %n, and to keep from overwriting); may be empty.
    std::function<bool(const std::string&)> exists;
    // false (`record` without --force-overwrite): a name that is taken already gets the pid
    // before its extension instead, so no earlier trace is overwritten.
    bool overwrite = true;
};

// The file a process writes its trace to, from the -o pattern (Nsight Systems' names):
//   %p  the process id          %h  the host name        %q{VAR}  the environment variable VAR
//   %n  the smallest number from 1 that makes the name new        %%  a '%'
// (RANK, LOCAL_RANK, OMPI_COMM_WORLD_RANK, SLURM_PROCID tell ranks apart: -o run-%q{RANK}.json.gz).
// A name without any % pattern is the root's; the other processes write beside it, their pid
// before the extension (mp.json.gz -> mp.4242.json.gz), so no process overwrites another's trace.
// Errors: an unknown %x, an unterminated %q{, an unset %q variable (named), an empty result.
model::Result<std::string> recordOutputPath(std::string_view pattern, const RecordProcess& process);

// Where `record` writes the merged trace of every process of a run: beside the first process's
// trace, ".merged" before the extension (mp.json.gz -> mp.merged.json.gz).
std::string mergedOutputPath(const std::string& firstTracePath);

// The merged trace's name for an -o pattern that names each process's trace apart (a % in its
// file name): beside those traces, the file name without its patterns (and the separators they
// leave at its ends), ".merged" before the extension: ddp-%q{RANK}.json.gz ->
// ddp.merged.json.gz, runs/rank%q{RANK}-%h.json.gz -> runs/rank.merged.json.gz. Empty when the
// pattern has no % or one in its folder (the traces are then in several folders).
std::string mergedPatternOutputPath(std::string_view pattern);

}  // namespace wl::io
