// widgets.h - small drawing helpers shared by the views (ImGui only; no state of their own).
#pragma once

#include <imgui.h>

#include <string>

#include "app_state.h"
#include "metrics.h"
#include "theme.h"

namespace app {

// A rounded card. Its height is remembered in ImGui's own storage (one frame behind).
struct Card {
    ImVec2 min;
    float width = 0, inner = 0;  // outer width, usable width inside the padding
    float pad = 0;               // the padding: kCardPad, or kCardPadTiny on a narrow card
    ImGuiID id = 0;
};
Card BeginCard(const char* id, const Palette& p, bool emphasised = false);
void EndCard(const Card& card);

// Row of toggle buttons; wraps to new lines when narrow. Returns the clicked index or -1.
int Segmented(const char* id, const char* const* labels, int count, int selected, const Palette& p,
              float max_width);

void Heading(const std::string& text);                    // SemiBold, larger
void Strong(const std::string& text);                     // SemiBold
void Caption(const std::string& text, const Palette& p);  // small, muted, wrapped
void Paragraph(const std::string& text);                  // wrapped body text
// `text` with line breaks at spaces so each line fits `width` (never inside "1.8").
std::string WrapAtSpaces(const std::string& text, ImFont* f, float size, float width);
// Caption cut to at most `lines` lines (ending in "…"); the full text shows on hover / focus.
void ClampedCaption(const std::string& text, const Palette& p, int lines, float width);
// Width Segmented needs to lay `labels` out on one row.
float SegmentedWidth(const char* const* labels, int count);
void ColouredText(const std::string& text, const ImVec4& c);
// The width of a frame (a button, a number field) that holds `text` with ImGui's padding.
float FramedWidth(const char* text);
// After a slider `frame_w` wide: its value again on a plate of the frame's colour (the grab never
// covers it).
void SliderValuePlate(float frame_w, const char* value);
// The next item on the current line when `width` more pixels fit before `right` (screen x), else
// on a new line.
void SameLineIfRoom(float width, float right);
// A slider's width in a card `W` wide: min(most, W * fraction), less where its label beside it
// would run past the card (at least kSliderMin).
float SliderWidth(const char* label, float W, float fraction, float most);
// A thin rule `width` wide at the cursor (ImGui's Separator spans the window, past the card).
void Rule(float width, const Palette& p);
// While one lives, the current font draws '-' as the minus sign '−' (U+2212), the page's and the
// canvas's own sign: ImGui's number fields print with printf, whose '-' is a hyphen. The font's
// own '-' comes back when it goes out of scope (the draw lists already hold the drawn glyphs).
class MinusSigns {
  public:
    MinusSigns();
    ~MinusSigns();
    MinusSigns(const MinusSigns&) = delete;
    MinusSigns& operator=(const MinusSigns&) = delete;

  private:
    ImFont* font_ = nullptr;  // nullptr: the font has no minus sign, nothing was changed
    ImWchar glyph_ = 0;       // the font's own '-': its glyph index and advance
    float advance_ = 0;
};

// A focusable candidate row region (hover, tap, keyboard focus). Returns true while highlighted
// by the pointer or by the keyboard's nav focus; `clicked` set when activated.
bool CandidateHit(const char* id, ImVec2 size, bool* clicked);

// `text` cut to at most `max_w` pixels in font `f` at `size`, ending in "…" when cut (UTF-8 safe).
std::string Ellipsize(ImFont* f, float size, const std::string& text, float max_w);

// A button that reads clearly as disabled when `enabled` is false (muted text on the card colour,
// no accent fill); `primary` gives the accent fill when enabled. Returns true when clicked.
bool StepButton(const char* label, ImVec2 size, bool enabled, bool primary, const Palette& p);

// Draws text centred in [min, max]; in the small font, then cut with "…", when it does not fit.
void CentredTextFit(ImDrawList* dl, ImVec2 min, ImVec2 max, ImU32 col, const std::string& text,
                    ImFont* f);

// Draws text centred in [min, max].
void CentredText(ImDrawList* dl, ImVec2 min, ImVec2 max, ImU32 col, const std::string& text,
                 ImFont* f = nullptr);

}  // namespace app
