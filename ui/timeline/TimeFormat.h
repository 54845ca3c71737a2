#pragma once

#include <QString>

#include "model/Time.h"

namespace wl::ui {

// Durations are units::duration (ui/common/Units.h), the one formatter every panel uses.

// A ruler label for time `ns` when ticks are `stepNs` apart and the largest label is about
// `magnitudeNs`: one unit for the whole ruler (the largest the labels reach, "2 ms"), with just
// enough decimals to tell neighbouring ticks apart; a smaller unit when that needs more than
// three decimals ("1200.2 ms" rather than "1.2002 s").
QString formatTickLabel(model::TimeNs ns, model::TimeNs stepNs, model::TimeNs magnitudeNs);

// Where the ruler's labels count from. Deep in a long trace absolute labels stop being readable
// ("1215140.784 µs" at a 20 ns zoom); then the ruler counts from an anchor, a round time at or
// before the view's start that stays put while panning, and ticks read "+785 ns".
struct RulerOrigin {
    bool relative = false;
    model::TimeNs anchorNs = 0;  // when relative: a multiple of anchorStepNs
    model::TimeNs anchorStepNs = 1;
    QString anchorName;  // a chosen anchor's name ("Flag 2"); empty for the round one
};
RulerOrigin rulerOrigin(model::TimeNs startNs, model::TimeNs endNs, model::TimeNs stepNs);
// The ruler counting from a chosen time (a reference flag) whatever the zoom: ticks read
// "+12.4 ms" after it and "-3 ms" before it, and the header "from Flag 2".
RulerOrigin rulerOriginAt(model::TimeNs anchorNs, QString anchorName);
// A tick's label under `origin`: formatTickLabel's absolute one, or "+785 ns" from the anchor.
QString rulerLabel(const RulerOrigin& origin, model::TimeNs ns, model::TimeNs stepNs,
                   model::TimeNs startNs, model::TimeNs endNs);
// The anchor as the ruler's header writes it ("from 1215.140 ms", "from Flag 2").
QString rulerAnchorText(const RulerOrigin& origin);

}  // namespace wl::ui
