// metrics.h - every layout number of the canvas in one place: breakpoints, paddings, row heights,
// column fractions (CSS pixels). Views read these; none keeps its own "narrow" width.
#pragma once

namespace app::metrics {

// ---- breakpoints --------------------------------------------------------------------------------
constexpr float kNarrowCanvas = 520;  // canvas narrower: phone layout (tight padding, list pickers)
constexpr float kTwoColumnCanvas = 860;  // canvas at least this wide: panels side by side
// Window padding (x, y) of the canvas, phone and wide.
constexpr float kWindowPadNarrowX = 10, kWindowPadNarrowY = 10;
constexpr float kWindowPadWideX = 18, kWindowPadWideY = 14;
constexpr float kCardPad = 14;  // inside a card
// a card narrower than kTinyCard (a 320-360 px phone) keeps kCardPadTiny inside, so the steps
// picture's five columns get the room
constexpr float kTinyCard = 320, kCardPadTiny = 10;
// A card's usable width on the narrowest canvas that is not narrow: below it, a panel uses its
// phone layout (short labels, stacked rows). Derived from the breakpoint and the paddings.
constexpr float kNarrowContent = kNarrowCanvas - 2 * kWindowPadNarrowX - 2 * kCardPad;  // 472
// a card at least this wide: the roomiest rows (misconceptions)
constexpr float kWideContent = 560;

// ---- the steps picture --------------------------------------------------------------------------
constexpr float kStepRowNarrow = 44, kStepRowWide = 46;          // one candidate row
constexpr float kScoreRadiusNarrow = 17, kScoreRadiusWide = 19;  // the score's circle
constexpr float kWeightHalfNarrow = 19, kWeightHalfWide = 26;    // half width of the weight pill
constexpr float kKeyColumnFraction = 0.58f;  // key / value split of a candidate box (wide)
constexpr int kStepCandidatesNarrow = 5, kStepCandidatesWide = 6;  // rows before "+ n more"

// ---- columns and controls -----------------------------------------------------------------------
constexpr float kLeftColumnWeight = 1.15f, kRightColumnWeight = 1.0f;  // two-column stretch
constexpr float kPickerFraction = 0.5f, kPickerMax = 220;  // a combo's width: min(max, W * f)
constexpr float kSliderFraction = 0.6f, kSliderMax = 260;  // a slider's width
// a slider is never narrower than kSliderMin (a label wider than the rest runs on)
constexpr float kSliderMin = 80;
// A vector's number fields: at least this wide, this far apart (Vectors view).
constexpr float kVectorCellMin = 28, kVectorCellGap = 4;
constexpr float kRampFraction = 0.4f, kRampMax = 180;              // the heatmap's colour scale
constexpr float kHeatmapTokenNarrow = 58, kHeatmapTokenWide = 96;  // row label column, at most
constexpr float kHeatmapMiniMax = 150;                             // one head strip, at most
// the trained model's grid of heads: each map at most kHeadMapMax wide; below kHeadMapMin (a phone)
// a layer's heads wrap onto rows of two, so each label ("H3 previous token") fits under its map
constexpr float kHeadMapMax = 120, kHeadMapMin = 96, kHeadMapGap = 10;

// ---- text ---------------------------------------------------------------------------------------
constexpr float kMinTextPx = 12;  // no canvas text smaller than this (CSS pixels)

}  // namespace app::metrics
