#include "model/passes/FinalizeState.h"

#include <utility>

namespace wl::model {

FinalizeState::FinalizeState(Trace& t, std::vector<PendingFlow> pending, TimeNs base, bool keep)
    : trace(t),
      strings(t.m_strings),
      processes(t.m_processes),
      tracks(t.m_tracks),
      counters(t.m_counters),
      flows(t.m_flows),
      flowFromIndex(t.m_flowFromIndex),
      flowToIndex(t.m_flowToIndex),
      dependencies(t.m_dependencies),
      devices(t.m_devices),
      captureWindows(t.m_captureWindows),
      diagnostics(t.m_diagnostics),
      counts(t.m_counts),
      originNs(t.m_originNs),
      producerBaseNs(t.m_producerBaseNs),
      spanNs(t.m_spanNs),
      pendingFlows(std::move(pending)),
      baseTimeNs(base),
      keepTimes(keep),
      m_trace(t) {}

void FinalizeState::shrinkSideTables() {
    Trace& t = m_trace;
    t.m_kernels.shrink_to_fit();
    t.m_memcpys.shrink_to_fit();
    t.m_memsets.shrink_to_fit();
    t.m_memories.shrink_to_fit();
    t.m_syncs.shrink_to_fit();
    t.m_apis.shrink_to_fit();
    t.m_nvtx.shrink_to_fit();
    t.m_unifiedMemory.shrink_to_fit();
    t.m_args.finish();
    t.m_origins.shrink_to_fit();
    t.m_keptEvents.finish();
}

}  // namespace wl::model
