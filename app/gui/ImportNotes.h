#pragma once

#include <QString>

#include "model/Diagnostics.h"

namespace wl::app {

// Every warning and note a trace's import made, as plain text for the message bar's details: a
// heading for each list, one line per message, and how many more there were than the import
// kept.
QString importNotesListing(const model::Diagnostics& d);

}  // namespace wl::app
