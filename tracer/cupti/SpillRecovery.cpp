#include "cupti/SpillRecovery.h"

#include <cstdlib>

#include "cupti/CaptureFilter.h"
#include "cupti/CuptiApi.h"
#include "cupti/SpillFile.h"

namespace wl::cupti {
namespace {

std::string valueOr(const std::map<std::string, std::string>& map, const char* key) {
    const auto it = map.find(key);
    return it == map.end() ? std::string() : it->second;
}

}  // namespace

model::Result<RecoveredTrace> recoverSpilledTrace(const std::string& spillPath) {
    auto api = makeRealCuptiApi();
    return recoverSpilledTrace(spillPath, [api](CUpti_CallbackDomain domain, CUpti_CallbackId id) {
        return api->callbackName(domain, id);
    });
}

model::Result<RecoveredTrace> recoverSpilledTrace(const std::string& spillPath,
                                                  RecordTranslator::ApiNameFn apiName) {
    RecordTranslator translator(std::move(apiName));
    auto replayed = replaySpill(spillPath, translator);
    if (!replayed.ok()) {
        return replayed.error();
    }
    const SpillSummary& summary = replayed.value();
    const auto& metadata = summary.metadata;
    translator.setHostProcessName(valueOr(metadata, kSpillProcessNameKey));
    translator.complete();
    auto& builder = translator.builder();
    const auto capture = analysis::parseCaptureRange(
        valueOr(metadata, kSpillCaptureRangeKey), valueOr(metadata, kSpillCaptureEndKey),
        valueOr(metadata, kSpillDelayKey), valueOr(metadata, kSpillDurationKey));
    if (capture.ok()) {
        keepCaptured(builder, capture.value(),
                     std::atoll(valueOr(metadata, kSpillStartKey).c_str()));
    } else {
        builder.diagnostics().warn("the capture range could not be applied: " +
                                   capture.error().message);
    }
    for (const auto& [key, value] : metadata) {
        if (key.rfind("spill.", 0) != 0) {
            builder.setMetadata(key, value);
        }
    }
    builder.setMetadata("ended",
                        "without writing its trace (killed: SIGKILL or the OOM killer); "
                        "recovered by warpline record");
    builder.diagnostics().warn(
        "this process ended without writing its trace (killed by SIGKILL or the OOM killer); it "
        "was recovered from " +
        std::to_string(summary.buffers) +
        " activity buffers. Records CUPTI had not yet handed over (about the last second before "
        "the process ended) are missing" +
        (summary.cutShort ? ", and the last buffer was cut short" : std::string()) +
        ", as are the NVTX calls of that last second (ranges it left open are counted as never "
        "ended).");
    RecoveredTrace recovered;
    recovered.outputPath = valueOr(metadata, kSpillOutputKey);
    recovered.trace = builder.finalize();
    return recovered;
}

}  // namespace wl::cupti
