#pragma once

#include <QString>

namespace wl::ui {

// Lets long names wrap (C++ kernel names, PyTorch's "enumerate(DataLoader)#_SingleProcess...
// __next__"): a zero-width space after the characters they are usually split at (: , ( < _ . #).
// A word-wrapped label or list item then never grows wider than its room.
QString breakable(const QString& text);

}  // namespace wl::ui
