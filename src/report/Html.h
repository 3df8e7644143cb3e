// The pieces of the report page (--emit=report): escaped HTML text, SVG figures built
// element by element, and the page they go into. Everything is written in one order with
// fixed number formatting, so the same module gives the same bytes.
//
// Colours are the Okabe-Ito palette (distinguishable with every common colour-vision
// deficiency) for categories, and a viridis ramp (ordered in lightness) for quantities;
// every figure also carries its categories as text (legend, labels, tooltips).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "support/OutputBuffer.h"

namespace tilec::report {

std::string escape(std::string_view text);
// Coordinates: integers as integers, otherwise two decimals with trailing zeros dropped.
std::string num(double v);
// 8 KiB, 1.5 MiB, 96 bytes.
std::string bytesText(int64_t bytes);

constexpr int kCategoryColours = 7;
// A category colour's CSS class ("k0" .. "k6"); i wraps around.
std::string categoryClass(size_t i);
// The colour of `value` in 0..1 on the sequential ramp, as #rrggbb.
std::string rampColour(double value);

// One SVG figure. Coordinates are user units of a width x height view box; the figure
// scales to the page width.
class Svg {
 public:
  Svg(double width, double height, std::string_view title);

  // Each element takes a class (see the page's style sheet) and an optional tooltip
  // (an SVG <title>, shown on hover and read by screen readers).
  void rect(double x, double y, double w, double h, std::string_view cls, std::string_view tip = {},
            std::string_view extraAttrs = {});
  void line(double x1, double y1, double x2, double y2, std::string_view cls);
  enum class Anchor { Start, Middle, End };
  void text(double x, double y, std::string_view s, std::string_view cls = "label", Anchor a = Anchor::Start);
  void verticalText(double x, double y, std::string_view s, std::string_view cls = "axis");
  // A group: everything until endGroup() is inside it (nested groups allowed).
  void group(std::string_view cls, std::string_view extraAttrs = {});
  void endGroup();
  // A horizontal axis from x0 to x1 at y with tick labels at the given values (mapped by
  // x0 + (v - lo) / (hi - lo) * (x1 - x0)) and a caption underneath; likewise vertical.
  void xAxis(double x0, double x1, double y, double lo, double hi, const std::vector<double>& ticks,
             std::string_view caption, std::string (*label)(double));
  void yAxis(double x, double y0, double y1, double lo, double hi, const std::vector<double>& ticks,
             std::string_view caption, std::string (*label)(double));

  double width() const { return width_; }
  double height() const { return height_; }
  std::string str() const;

 private:
  double width_, height_;
  std::string title_, body_;
  int open_ = 0;
};

// Up to about `count` round tick values from lo to hi (1, 2 or 5 times a power of ten apart).
std::vector<double> niceTicks(double lo, double hi, int count);

// The page: a header, one <section> per kernel and per topic, in the order written.
// Everything goes straight to the output; the navigation bar and the sections' own style
// rules, which precede the sections in the file, are filled in by finish().
class Page {
 public:
  Page(std::string_view title, OutputBuffer& out);
  void section(std::string_view id, std::string_view title, std::string_view cls = "");
  void endSection();
  void heading(std::string_view text);  // <h3>
  void paragraph(std::string_view html);  // already escaped
  // `caption` is text; `sourceHtml`, links to the source lines the figure shows, follows it.
  void figure(const Svg& svg, std::string_view cls, std::string_view caption, std::string_view sourceHtml = {});
  // A legend: colour class and text per entry.
  void legend(const std::vector<std::pair<std::string, std::string>>& entries);
  void table(const std::vector<std::string>& header, const std::vector<std::vector<std::string>>& rows,
             std::string_view cls = "");  // cells already escaped
  void raw(std::string_view html) { out_ << html; }
  // Style rules a section needs beyond the page's own sheet, added once per `key`.
  void addStyle(std::string_view key, std::string_view css);
  void finish();  // closes the page; nothing may be written after it

 private:
  OutputBuffer& out_;
  OutputBuffer::Placeholder styleSlot_, navSlot_;
  std::string nav_, extraStyle_;
  std::vector<std::string> styleKeys_;
  int open_ = 0;
};

}  // namespace tilec::report
