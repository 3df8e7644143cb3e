#include "report/Html.h"

#include <cmath>
#include <cstdio>

namespace tilec::report {

std::string escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string num(double v) {
  if (!std::isfinite(v)) return "0";
  if (v == std::floor(v) && std::fabs(v) < 1e15) return std::to_string(int64_t(v));
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  std::string s = buf;
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s == "-0" ? "0" : s;
}

std::string bytesText(int64_t bytes) {
  if (bytes == INT64_MAX) return "more than 8 EiB";
  static const char* const kUnits[] = {"KiB", "MiB", "GiB"};
  if (bytes < 1024) return std::to_string(bytes) + (bytes == 1 ? " byte" : " bytes");
  double v = double(bytes) / 1024;
  int unit = 0;
  while (v >= 1024 && unit < 2) v /= 1024, ++unit;
  return num(std::round(v * 100) / 100) + " " + kUnits[unit];
}

std::string categoryClass(size_t i) { return "k" + std::to_string(i % kCategoryColours); }

std::string rampColour(double value) {
  // Viridis at eight stops, interpolated linearly.
  static const int kStops[8][3] = {{68, 1, 84},    {70, 50, 127},  {54, 92, 141},  {39, 127, 142},
                                   {31, 161, 135}, {74, 193, 109}, {160, 218, 57}, {253, 231, 37}};
  value = std::fmin(1, std::fmax(0, std::isfinite(value) ? value : 0)) * 7;
  const int i = std::min(6, int(value));
  const double t = value - i;
  char buf[8];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", int(std::lround(kStops[i][0] + t * (kStops[i + 1][0] - kStops[i][0]))),
                int(std::lround(kStops[i][1] + t * (kStops[i + 1][1] - kStops[i][1]))),
                int(std::lround(kStops[i][2] + t * (kStops[i + 1][2] - kStops[i][2]))));
  return buf;
}

Svg::Svg(double width, double height, std::string_view title) : width_(width), height_(height), title_(title) {}

namespace {

std::string tooltip(std::string_view tip) {
  return tip.empty() ? std::string() : "<title>" + escape(tip) + "</title>";
}

}  // namespace

void Svg::rect(double x, double y, double w, double h, std::string_view cls, std::string_view tip,
               std::string_view extraAttrs) {
  body_ += "<rect x=\"" + num(x) + "\" y=\"" + num(y) + "\" width=\"" + num(std::fmax(w, 0)) + "\" height=\"" +
           num(std::fmax(h, 0)) + "\" class=\"" + std::string(cls) + "\"";
  if (!extraAttrs.empty()) body_ += " " + std::string(extraAttrs);
  body_ += tip.empty() ? "/>" : ">" + tooltip(tip) + "</rect>";
  body_ += '\n';
}

void Svg::line(double x1, double y1, double x2, double y2, std::string_view cls) {
  body_ += "<line x1=\"" + num(x1) + "\" y1=\"" + num(y1) + "\" x2=\"" + num(x2) + "\" y2=\"" + num(y2) +
           "\" class=\"" + std::string(cls) + "\"/>\n";
}

void Svg::text(double x, double y, std::string_view s, std::string_view cls, Anchor a) {
  static const char* const kAnchors[] = {"start", "middle", "end"};
  body_ += "<text x=\"" + num(x) + "\" y=\"" + num(y) + "\" class=\"" + std::string(cls) + "\" text-anchor=\"" +
           kAnchors[int(a)] + "\">" + escape(s) + "</text>\n";
}

void Svg::verticalText(double x, double y, std::string_view s, std::string_view cls) {
  body_ += "<text transform=\"translate(" + num(x) + "," + num(y) + ") rotate(-90)\" class=\"" + std::string(cls) +
           "\" text-anchor=\"middle\">" + escape(s) + "</text>\n";
}

void Svg::group(std::string_view cls, std::string_view extraAttrs) {
  body_ += "<g class=\"" + std::string(cls) + "\"" + (extraAttrs.empty() ? "" : " " + std::string(extraAttrs)) + ">\n";
  ++open_;
}

void Svg::endGroup() {
  if (open_ == 0) return;
  body_ += "</g>\n";
  --open_;
}

void Svg::xAxis(double x0, double x1, double y, double lo, double hi, const std::vector<double>& ticks,
                std::string_view caption, std::string (*label)(double)) {
  line(x0, y, x1, y, "axis-line");
  for (double t : ticks) {
    const double x = hi > lo ? x0 + (t - lo) / (hi - lo) * (x1 - x0) : x0;
    line(x, y, x, y + 4, "axis-line");
    text(x, y + 16, label(t), "axis", Anchor::Middle);
  }
  text((x0 + x1) / 2, y + 34, caption, "axis-caption", Anchor::Middle);
}

void Svg::yAxis(double x, double y0, double y1, double lo, double hi, const std::vector<double>& ticks,
                std::string_view caption, std::string (*label)(double)) {
  line(x, y0, x, y1, "axis-line");
  for (double t : ticks) {
    const double y = hi > lo ? y0 + (t - lo) / (hi - lo) * (y1 - y0) : y0;
    line(x - 4, y, x, y, "axis-line");
    text(x - 7, y + 4, label(t), "axis", Anchor::End);
  }
  verticalText(x - 58, (y0 + y1) / 2, caption, "axis-caption");
}

std::string Svg::str() const {
  std::string out = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 " + num(width_) + " " + num(height_) +
                    "\" width=\"" + num(width_) + "\" role=\"img\" aria-label=\"" + escape(title_) + "\">\n";
  out += "<title>" + escape(title_) + "</title>\n" + body_;
  for (int i = 0; i < open_; ++i) out += "</g>\n";
  return out + "</svg>\n";
}

std::vector<double> niceTicks(double lo, double hi, int count) {
  if (!(hi > lo) || count < 1) return {lo};
  const double raw = (hi - lo) / count;
  const double power = std::pow(10, std::floor(std::log10(raw)));
  double step = power;
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * power >= raw) {
      step = m * power;
      break;
    }
  std::vector<double> ticks;
  for (double t = std::ceil(lo / step) * step; t <= hi + step * 1e-9; t += step) ticks.push_back(t);
  return ticks;
}

namespace {

// The whole style sheet: a figure's look is here, not in its elements.
const char* const kStyle = R"css(
:root { --ink: #1b1b1b; --muted: #5f6368; --rule: #d0d4d9; --paper: #ffffff; --panel: #f6f7f9; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif; color: var(--ink); background: var(--paper); }
header { padding: 16px 28px; border-bottom: 1px solid var(--rule); background: var(--panel); }
header h1 { margin: 0 0 4px; font-size: 20px; }
header p { margin: 0; color: var(--muted); }
nav { padding: 8px 28px; border-bottom: 1px solid var(--rule); font-size: 13px; }
nav a { margin-right: 14px; color: #0b57a4; text-decoration: none; }
main { padding: 8px 28px 40px; max-width: 1200px; }
section { padding: 14px 0 18px; border-bottom: 1px solid var(--rule); }
section > h2 { font-size: 17px; margin: 6px 0 8px; }
h3 { font-size: 14px; margin: 16px 0 6px; }
p { margin: 6px 0; max-width: 80ch; }
figure { margin: 10px 0 16px; }
figure svg { max-width: 100%; height: auto; display: block; background: var(--paper); }
figcaption { color: var(--muted); font-size: 12px; margin-top: 4px; }
table { border-collapse: collapse; margin: 8px 0; font-size: 13px; }
th, td { border: 1px solid var(--rule); padding: 3px 8px; text-align: left; vertical-align: top; }
th { background: var(--panel); }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
code, pre, .mono { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 12.5px; }
.legend { display: flex; flex-wrap: wrap; gap: 4px 16px; margin: 6px 0; font-size: 12px; }
.legend span.swatch { display: inline-block; width: 12px; height: 12px; margin-right: 5px; vertical-align: -2px; border: 1px solid #555; }
.small-multiples { display: flex; flex-wrap: wrap; gap: 10px; }
.small-multiples figure { margin: 4px 0; }
svg text { font-family: system-ui, "DejaVu Sans", sans-serif; fill: var(--ink); }
svg .label { font-size: 11px; }
svg .axis { font-size: 10px; fill: var(--muted); }
svg .axis-caption { font-size: 11px; fill: var(--ink); }
svg .title { font-size: 12px; font-weight: 600; }
svg .axis-line { stroke: #6b7075; stroke-width: 1; }
svg .grid { stroke: #e3e6ea; stroke-width: 1; }
svg .capacity { stroke: #c0392b; stroke-width: 2; stroke-dasharray: 6 4; }
svg .peak { stroke: #1b1b1b; stroke-width: 1.5; stroke-dasharray: 2 3; }
svg .loop-band { fill: #e8eef7; fill-opacity: 0.7; }
svg .tensor { fill: #f2f3f5; stroke: #8a8f95; stroke-width: 1; }
svg .window { fill-opacity: 0.55; stroke: #1b1b1b; stroke-width: 1.5; }
svg .sweep { fill: #9aa0a6; fill-opacity: 0.3; stroke: #9aa0a6; stroke-dasharray: 3 2; }
svg .invalid { fill: url(#hatch); stroke: #1b1b1b; stroke-width: 0.5; }
svg .cell { stroke: #ffffff; stroke-width: 1; }
svg .outline { fill: none; stroke: #1b1b1b; stroke-width: 1.5; }
svg .k0 { fill: #0072B2; } svg .k1 { fill: #E69F00; } svg .k2 { fill: #009E73; } svg .k3 { fill: #CC79A7; }
svg .k4 { fill: #56B4E9; } svg .k5 { fill: #D55E00; } svg .k6 { fill: #F0E442; }
.legend .k0 { background: #0072B2; } .legend .k1 { background: #E69F00; } .legend .k2 { background: #009E73; }
.legend .k3 { background: #CC79A7; } .legend .k4 { background: #56B4E9; } .legend .k5 { background: #D55E00; }
.legend .k6 { background: #F0E442; } .legend .sweep-swatch { background: #d7d9dc; } .legend .loop-swatch { background: #e8eef7; } .legend .outline-swatch { background: #fff; border: 2px solid #1b1b1b; } .legend .capacity-swatch { background: #c0392b; } .legend .peak-swatch { background: #1b1b1b; } .legend .hatched { background: repeating-linear-gradient(45deg, #fff 0 3px, #555 3px 4px); }
.listing { background: var(--panel); border: 1px solid var(--rule); padding: 6px 0; overflow-x: auto; }
.listing div { white-space: pre; padding: 0 10px; }
.listing div:target, .listing div.marked { background: #fff3c4; }
.listing .ln { display: inline-block; width: 4ch; color: var(--muted); text-align: right; margin-right: 12px; user-select: none; }
.diag-error { color: #b00020; font-weight: 600; } .diag-warning { color: #8a5300; font-weight: 600; } .diag-note, .diag-remark { color: var(--muted); font-weight: 600; }
.empty { color: var(--muted); font-style: italic; }
)css";

// Patterns the style sheet refers to, defined once for the whole page.
const char* const kSharedDefs =
    "<svg width=\"0\" height=\"0\" style=\"position:absolute\" aria-hidden=\"true\"><defs>"
    "<pattern id=\"hatch\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">"
    "<rect width=\"6\" height=\"6\" fill=\"#ffffff\"/><rect width=\"2\" height=\"6\" fill=\"#555555\"/></pattern>"
    "</defs></svg>\n";

}  // namespace

Page::Page(std::string_view title, OutputBuffer& out) : out_(out) {
  out_ << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
          "<meta name=\"generator\" content=\"tilec\">\n<title>"
       << escape(title) << "</title>\n<style>" << kStyle;
  styleSlot_ = out_.placeholder();
  out_ << "</style>\n</head>\n<body>\n" << kSharedDefs << "<header><h1>" << escape(title)
       << "</h1><p>tilec kernel report</p></header>\n<nav>\n";
  navSlot_ = out_.placeholder();
  out_ << "</nav>\n<main>\n";
}

void Page::section(std::string_view id, std::string_view title, std::string_view cls) {
  endSection();
  out_ << "<section id=\"" << escape(id) << "\" class=\"report-section" << (cls.empty() ? "" : " " + std::string(cls))
       << "\">\n<h2>" << escape(title) << "</h2>\n";
  nav_ += "<a href=\"#" + escape(id) + "\">" + escape(title) + "</a>\n";
  open_ = 1;
}

void Page::endSection() {
  if (open_) out_ << "</section>\n";
  open_ = 0;
}

void Page::addStyle(std::string_view key, std::string_view css) {
  for (const std::string& k : styleKeys_)
    if (k == key) return;
  styleKeys_.emplace_back(key);
  extraStyle_ += std::string(css) + "\n";
}

void Page::heading(std::string_view text) { out_ << "<h3>" << escape(text) << "</h3>\n"; }

void Page::paragraph(std::string_view html) { out_ << "<p>" << html << "</p>\n"; }

void Page::figure(const Svg& svg, std::string_view cls, std::string_view caption, std::string_view sourceHtml) {
  out_ << "<figure class=\"" << cls << "\">\n" << svg.str();
  if (!caption.empty() || !sourceHtml.empty())
    out_ << "<figcaption>" << escape(caption) << (caption.empty() || sourceHtml.empty() ? "" : " ") << sourceHtml
         << "</figcaption>\n";
  out_ << "</figure>\n";
}

void Page::legend(const std::vector<std::pair<std::string, std::string>>& entries) {
  out_ << "<div class=\"legend\">";
  for (const auto& [cls, text] : entries)
    out_ << "<span><span class=\"swatch " << cls << "\"></span>" << escape(text) << "</span>";
  out_ << "</div>\n";
}

void Page::table(const std::vector<std::string>& header, const std::vector<std::vector<std::string>>& rows,
                 std::string_view cls) {
  out_ << "<table" << (cls.empty() ? std::string() : " class=\"" + std::string(cls) + "\"") << ">\n<tr>";
  for (const std::string& h : header) out_ << "<th>" << escape(h) << "</th>";
  out_ << "</tr>\n";
  for (const auto& row : rows) {
    out_ << "<tr>";
    for (const std::string& cell : row) out_ << "<td>" << cell << "</td>";
    out_ << "</tr>\n";
  }
  out_ << "</table>\n";
}

void Page::finish() {
  endSection();
  out_ << "</main>\n</body>\n</html>\n";
  out_.fill(styleSlot_, extraStyle_);
  out_.fill(navSlot_, nav_);
}

}  // namespace tilec::report
